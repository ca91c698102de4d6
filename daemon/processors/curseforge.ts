// PufferPanel v3's curseforge step: a modpack's server pack from CurseForge's API (the file
// given, else the newest release), unpacked into the server's folder through the jail; a Forge
// installer the pack ships is then run. CurseForge's API needs a key: the node's
// `curseforgeKey` (as PufferPanel's daemon needs one). Packs that set up Fabric through their
// variables.txt or only carry a client manifest are unpacked but not installed further.
import { z } from "zod";
import type { StepOf } from "../../core/definition/steps";
import { DEFAULT_EXTRACT_LIMITS, extractArchive } from "../files/extract";
import { removePath } from "../files/operations";
import { downloadIntoJail, fetchOk } from "./http";
import { expandWildcard } from "./glob";
import type { StepContext } from "./types";

const fileSchema = z.object({
  id: z.number(),
  fileDate: z.string(),
  releaseType: z.number(),
  isServerPack: z.boolean().default(false),
  serverPackFileId: z.number().nullish(),
  downloadUrl: z.string().nullish(),
});
type CurseFile = z.infer<typeof fileSchema>;
const RELEASE = 1;
const PACK = ".kiln-curseforge-pack.zip";

async function api<S extends z.ZodType>(path: string, schema: S, ctx: StepContext): Promise<z.infer<S>> {
  if (!ctx.curseforgeKey) throw new Error("this node has no CurseForge API key (curseforgeKey in its config), which CurseForge's API requires");
  const url = `${ctx.sources.curseforge}${path}`;
  const res = await fetchOk(url, { signal: ctx.signal, headers: { "x-api-key": ctx.curseforgeKey, accept: "application/json" } });
  const body = (await res.json().catch(() => null)) as { data?: unknown } | null;
  const parsed = schema.safeParse(body?.data);
  if (!parsed.success) throw new Error(`unexpected answer from ${url}`);
  return parsed.data;
}

export async function curseforge(step: StepOf<"curseforge">, ctx: StepContext): Promise<void> {
  if (!/^\d+$/.test(step.projectId) || !/^\d*$/.test(step.fileId)) throw new Error("projectId and fileId must be CurseForge ids (numbers)");
  let file: CurseFile;
  if (step.fileId) file = await api(`/v1/mods/${step.projectId}/files/${step.fileId}`, fileSchema, ctx);
  else {
    const files = (await api(`/v1/mods/${step.projectId}/files`, z.array(fileSchema), ctx)).filter((f) => f.releaseType === RELEASE);
    const newest = files.sort((a, b) => Date.parse(b.fileDate) - Date.parse(a.fileDate))[0];
    if (!newest) throw new Error(`CurseForge project ${step.projectId} has no release file`);
    file = newest;
  }
  if (!file.isServerPack && file.serverPackFileId) file = await api(`/v1/mods/${step.projectId}/files/${file.serverPackFileId}`, fileSchema, ctx);
  if (!file.isServerPack || !file.downloadUrl) throw new Error(`CurseForge file ${file.id} is not a server pack`);
  ctx.log(`downloading the modpack from ${file.downloadUrl}`);
  await downloadIntoJail(file.downloadUrl, ctx.jail, PACK, ctx);
  try {
    await extractArchive(ctx.jail, PACK, "", ctx.extractLimits ?? DEFAULT_EXTRACT_LIMITS);
  } finally {
    removePath(ctx.jail, PACK);
  }
  const [installer] = expandWildcard(ctx.jail, "forge-*-installer.jar");
  if (!installer) return ctx.log("the modpack brings no Forge installer; its files are in place");
  ctx.log(`installing Forge with ${installer}`);
  const exit = await ctx.execute([step.java, "-jar", installer, "--installServer"]);
  if (exit.code !== 0) throw new Error(`the Forge installer exited with code ${exit.code}`);
}

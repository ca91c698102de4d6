// The two calls of CurseForge's API (https://docs.curseforge.com/rest-api/) the curseforge step
// makes, as PufferPanel's daemon makes them: a project's latest files (GET /v1/mods/{id}, its
// latestFiles) and one file (GET /v1/mods/{id}/files/{fileId}), both answered as {data: …}. The
// node's API key goes in x-api-key on these calls only (never on the downloads they point at),
// and a redirect is refused, so the key cannot be carried to another host.
import { z } from "../../core/zod";
import { newestPublishedRelease } from "../../core/mods/curseforge-files";
import { fetchOk } from "./http";
import type { StepContext } from "./types";

export const fileSchema = z.looseObject({
  id: z.number(),
  fileDate: z._default(z.string(), ""),
  /** 1 release, 2 beta, 3 alpha. */
  releaseType: z._default(z.number(), 0),
  /** CurseForge's FileStatus: 4 approved and 10 released are the ones PufferPanel takes. */
  fileStatus: z._default(z.number(), 0),
  isServerPack: z.nullish(z.boolean()),
  serverPackFileId: z.nullish(z.number()),
  parentProjectFileId: z.nullish(z.number()),
  /** Null when the author does not allow downloads outside CurseForge. */
  downloadUrl: z.nullish(z.string()),
  /** The file's hashes: algo 1 is SHA-1, 2 MD5. */
  hashes: z._default(z.array(z.looseObject({ value: z.string(), algo: z.number() })), []),
});
export type CurseFile = z.infer<typeof fileSchema>;


async function api<S extends z.ZodMiniType>(path: string, schema: S, ctx: StepContext): Promise<z.infer<S> | null> {
  if (!ctx.curseforgeKey) throw new Error("this node has no CurseForge API key (curseforgeKey in its config, or KILN_DAEMON_CURSEFORGE_KEY), which CurseForge's API requires");
  const url = `${ctx.sources.curseforge}${path}`;
  let res: Response;
  try {
    res = await fetchOk(url, { signal: ctx.signal, headers: { "x-api-key": ctx.curseforgeKey, accept: "application/json" }, redirect: "error" });
  } catch (error) {
    // A project or file CurseForge does not know: said by the caller, as PufferPanel says it.
    if (error instanceof Error && / HTTP 404$/.test(error.message)) return null;
    throw error;
  }
  const body = (await res.json().catch(() => null)) as { data?: unknown } | null;
  const parsed = schema.safeParse(body?.data);
  if (!parsed.success) throw new Error(`unexpected answer from ${url}: ${parsed.error.issues[0]?.path.join(".") || "data"}: ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}

/** One file of a project; a file CurseForge does not know is an error naming it. */
export async function curseFile(projectId: string, fileId: number | string, ctx: StepContext): Promise<CurseFile> {
  const file = await api(`/v1/mods/${projectId}/files/${fileId}`, fileSchema, ctx);
  if (!file) throw new Error(`CurseForge has no file ${fileId} in project ${projectId}`);
  return file;
}

/** The newest released file of a project (PufferPanel: approved or released status, release type). */
export async function newestRelease(projectId: string, ctx: StepContext): Promise<CurseFile> {
  const project = await api(`/v1/mods/${projectId}`, z.looseObject({ latestFiles: z._default(z.array(fileSchema), []) }), ctx);
  const newest = newestPublishedRelease(project?.latestFiles ?? []);
  if (!newest) throw new Error(`CurseForge project ${projectId} has no released file available`);
  return newest;
}

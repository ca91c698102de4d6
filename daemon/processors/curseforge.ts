// PufferPanel v3's curseforge step, as its daemon runs it (operations/curseforge): the modpack
// file given (or the project's newest release), and from it the server pack: the file itself if
// it is one, else the server pack CurseForge links to it; the client pack (the file a server pack
// was made from) is kept in view for its manifest. Each download must match the SHA-1 CurseForge
// lists for it (PufferPanel checks none). The server pack is unpacked into the server's
// folder through the jail; a pack that is one top folder is stepped into (PufferPanel asks for
// that with skipRoot, though its single-root check never reports one, so there the folder stays
// and the pack cannot start). Then the mod loader is found the way PufferPanel finds it, in
// order: an installer the pack ships, the pack's variables.txt (MODLOADER, MINECRAFT_VERSION,
// MODLOADER_VERSION, FABRIC_INSTALLER_VERSION), or the client pack's manifest.json
// (minecraft.version and the primary modLoaders id, "forge-47.2.0"). Forge, NeoForge and Fabric
// are installed (./curseforge-loaders); a pack whose loader cannot be told, or another loader,
// is left unpacked with a console line, and the step succeeds, as PufferPanel's does.
// CurseForge's API needs a key: the node's `curseforgeKey` (./curseforge-api).
import { closeSync, readFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { z } from "../../core/zod";
import type { StepOf } from "../../core/definition/steps";
import { DEFAULT_EXTRACT_LIMITS, extractArchive } from "../files/extract";
import { moveIntoPlace } from "../files/extract-place";
import { checkLinksOnDisk } from "../files/extract-links";
import { readFolder } from "../files/listing";
import { openRegularFile } from "../files/open-regular";
import { makeFolder, removePath } from "../files/operations";
import { STAGING_PREFIX } from "../files/node-staging";
import { curseFile, newestRelease, type CurseFile } from "./curseforge-api";
import { installFabric, installForge, installNeoForge, runInstaller, shippedInstaller } from "./curseforge-loaders";
import { downloadIntoJail } from "./http";
import type { StepContext } from "./types";
import { message } from "../../core/live/daemon-message";

/** What variables.txt and manifest.json may hold that is worth reading: far below this. */
const MAX_PACK_TEXT = 256 * 1024;

interface LoaderChoice {
  loader: string;
  minecraft: string;
  version: string;
  installerVersion?: string;
}

export async function curseforge(step: StepOf<"curseforge">, ctx: StepContext): Promise<void> {
  if (!/^\d+$/.test(step.projectId) || !/^\d*$/.test(step.fileId)) throw new Error("projectId and fileId must be CurseForge ids (numbers)");
  // PufferPanel reads an empty or zero fileId as "the newest release".
  let server = /^0*$/.test(step.fileId) ? await newestRelease(step.projectId, ctx) : await curseFile(step.projectId, step.fileId, ctx);
  let client: CurseFile | undefined;
  if (!server.isServerPack && server.serverPackFileId) {
    client = server;
    server = await curseFile(step.projectId, server.serverPackFileId, ctx);
  }
  if (!client && server.parentProjectFileId) client = await curseFile(step.projectId, server.parentProjectFileId, ctx);
  if (!server.isServerPack) throw new Error(`CurseForge file ${server.id} is not a server pack, and none is linked to it`);
  await unpackServerPack(server, ctx);

  const jar = shippedInstaller(ctx.jail);
  if (jar) return runInstaller(jar, step.java, ctx).then(() => ctx.log(message("daemon.step.modpackInstalled")));
  const choice = variablesFile(ctx) ?? (client ? await clientManifest(client, ctx) : undefined);
  if (!choice) return ctx.log(message("daemon.step.modpackNoLoader"));
  if (choice.loader === "forge") await installForge(choice.minecraft, choice.version, step.java, ctx);
  else if (choice.loader === "neoforge") await installNeoForge(choice.version, step.java, ctx);
  else if (choice.loader === "fabric") await installFabric(choice.minecraft, choice.version, choice.installerVersion, step.java, ctx);
  else return ctx.log(message("daemon.step.modpackOtherLoader", { loader: choice.loader.slice(0, 40) }));
  ctx.log(message("daemon.step.modpackInstalled"));
}

function downloadUrl(file: CurseFile): string {
  if (!file.downloadUrl) throw new Error(`CurseForge gives no download for file ${file.id} (its author allows downloads only through CurseForge)`);
  return file.downloadUrl;
}

/**
 * The SHA-1 CurseForge lists for the file, which the download must match. Nothing is unpacked
 * unverified: a file listed without one is refused (CurseForge lists one for every file; PufferPanel
 * checks none).
 */
function listedSha1(file: CurseFile): string {
  const sha1 = file.hashes.find((hash) => hash.algo === 1)?.value.toLowerCase();
  if (!sha1 || !/^[0-9a-f]{40}$/.test(sha1)) throw new Error(`CurseForge lists no SHA-1 for file ${file.id}: it is not installed unverified`);
  return sha1;
}

/**
 * Downloads `file` and unpacks it into a staging folder inside the server's folder (through the
 * jail, with the node's extraction limits), hands the folder to `use`, then removes both.
 */
async function withUnpacked<T>(file: CurseFile, what: "modpack" | "clientModpack", ctx: StepContext, use: (folder: string) => T): Promise<T> {
  const url = downloadUrl(file);
  const sha1 = listedSha1(file);
  const id = randomUUID();
  const [pack, staging] = [`${STAGING_PREFIX.curseforge}${id}.zip`, `${STAGING_PREFIX.curseforge}${id}`];
  ctx.log(message("daemon.step.downloadingThe", { what: message(`daemon.what.${what}`), url }));
  try {
    await downloadIntoJail(url, ctx.jail, pack, ctx, sha1);
    makeFolder(ctx.jail, staging);
    await extractArchive(ctx.jail, pack, staging, ctx.extractLimits ?? DEFAULT_EXTRACT_LIMITS);
    return use(staging);
  } finally {
    for (const leftover of [pack, staging]) {
      try {
        removePath(ctx.jail, leftover);
      } catch {
        // never made
      }
    }
  }
}

/** The server pack in the server's folder; a pack that is one top folder is stepped into. */
async function unpackServerPack(file: CurseFile, ctx: StepContext): Promise<void> {
  await withUnpacked(file, "modpack", ctx, (staging) => {
    const top = readFolder(ctx.jail, staging);
    const placed = top.length === 1 && top[0]!.stats.isDirectory() ? `${staging}/${top[0]!.name}` : staging;
    // The extraction checked links against the staging folder; stepped into its top folder, a
    // link to `..` would lead out of the server's folder once in place: checked again from there.
    if (placed !== staging) checkLinksOnDisk(ctx.jail, placed);
    moveIntoPlace(ctx.jail, placed, "");
  });
  ctx.log(message("daemon.step.modpackUnpacked"));
}

/** A text file of the server's folder (or undefined when it is not there), read through the jail. */
function readText(ctx: StepContext, path: string): string | undefined {
  let opened: ReturnType<typeof openRegularFile>;
  try {
    opened = openRegularFile(ctx.jail, path);
  } catch {
    return undefined;
  }
  try {
    if (opened.stats.size > MAX_PACK_TEXT) throw new Error(`${path} in the modpack is larger than ${MAX_PACK_TEXT} bytes`);
    return readFileSync(opened.fd, "utf8");
  } finally {
    closeSync(opened.fd);
  }
}

/** The pack's variables.txt (KEY=value lines, # comments, values maybe in quotes), as PufferPanel reads it. */
function variablesFile(ctx: StepContext): LoaderChoice | undefined {
  const text = readText(ctx, "variables.txt");
  if (text === undefined) return undefined;
  const vars = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    if (line.startsWith("#") || !line.includes("=")) continue;
    const at = line.indexOf("=");
    vars.set(line.slice(0, at), line.slice(at + 1).replace(/^"+|"+$/g, ""));
  }
  ctx.log(message("daemon.step.modpackVariables"));
  return { loader: (vars.get("MODLOADER") ?? "").toLowerCase(), minecraft: vars.get("MINECRAFT_VERSION") ?? "", version: vars.get("MODLOADER_VERSION") ?? "", installerVersion: vars.get("FABRIC_INSTALLER_VERSION") || undefined };
}

const manifestSchema = z.looseObject({
  minecraft: z.looseObject({ version: z.string(), modLoaders: z._default(z.array(z.looseObject({ id: z.string(), primary: z._default(z.boolean(), false) })), []) }),
});

/** The client pack's manifest.json: the Minecraft version and the primary loader ("forge-47.2.0"). */
async function clientManifest(file: CurseFile, ctx: StepContext): Promise<LoaderChoice | undefined> {
  const text = await withUnpacked(file, "clientModpack", ctx, (staging) => readText(ctx, `${staging}/manifest.json`));
  if (text === undefined) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error("the client modpack's manifest.json is not JSON");
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) throw new Error(`the client modpack's manifest.json does not say minecraft.version and modLoaders`);
  const primary = parsed.data.minecraft.modLoaders.find((l) => l.primary);
  if (!primary) return undefined;
  const dash = primary.id.indexOf("-");
  return { loader: (dash < 0 ? primary.id : primary.id.slice(0, dash)).toLowerCase(), minecraft: parsed.data.minecraft.version, version: dash < 0 ? "" : primary.id.slice(dash + 1) };
}

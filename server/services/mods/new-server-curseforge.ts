// A new server made from a CurseForge modpack (POST /api/servers {modpack: {source: "curseforge"}},
// Add server's modpack field with a pack's CurseForge page address). The server pack is installed
// by the template's own curseforge step on the node (download checked against CurseForge's SHA-1,
// unpacked through the jail, its loader installed): the panel only checks what it is asked for
// with the administrator's key and fills in the template's variables: the project, the file
// (pinned: the newest release when none is named, so installing again installs the same pack) and
// the Java its Minecraft version runs on. The node asks CurseForge with its own key.
import { KilnError } from "../../../core/errors";
import { newestPublishedRelease } from "../../../core/mods/curseforge-files";
import { curseforgePackVariables, javaForMinecraft } from "../../../core/definition/curseforge-pack";
import type { Template } from "../../../core/definition";
import type { Platform } from "../../../core/mods/types";
import { safeGameVersion } from "../../../core/mods/versions";
import type { Db } from "../../../db";
import { allTemplates, getTemplate } from "../templates";
import type { CurseForgeClient } from "./curseforge";
import type { ModpackChoice, NewServerPack } from "./new-server-pack";
import { sourceClient } from "./sources";

/** The loaders the curseforge step installs, by the names CurseForge lists among a file's game versions. */
const INSTALLED: Record<string, Platform> = { forge: "forge", neoforge: "neoforge", fabric: "fabric" };
/** Other loaders CurseForge names: a pack for one of them would be unpacked with nothing to start it. */
const OTHER_LOADERS = ["quilt", "liteloader", "cauldron", "rift"];

export async function newServerCurseForgePack(db: Db, choice: ModpackChoice, templateId: string | undefined): Promise<NewServerPack> {
  const client = (await sourceClient(db, "curseforge")) as CurseForgeClient;
  const pack = await client.modpack(choice.projectId);
  const file = choice.versionId ? await client.file(pack.id, choice.versionId) : newestPublishedRelease(pack.latestFiles);
  const versionNumber = (file?.displayName || file?.fileName || "").slice(0, 200);
  // No released file has no server pack to install either.
  if (!file?.isServerPack && !file?.serverPackFileId) throw new KilnError("ErrModPackNoServerPack", { title: pack.title.slice(0, 200), version: versionNumber });
  const named = file.gameVersions.map((v) => v.toLowerCase());
  const loader = named.map((v) => INSTALLED[v]).find((l) => l !== undefined) ?? null;
  const other = named.find((v) => OTHER_LOADERS.includes(v));
  if (!loader && other) throw new KilnError("ErrModPackNoTemplate", { loader: other });
  const gameVersion = file.gameVersions.map(safeGameVersion).find((v) => v !== null) ?? null;
  const template = templateId ? await namedTemplate(db, templateId) : await firstTemplate(db);
  const names = curseforgePackVariables(template.install)!;
  const java = gameVersion ? javaForMinecraft(gameVersion) : null;
  return {
    template: template.id,
    loader,
    gameVersion,
    variables: { [names.projectId]: String(pack.id), [names.fileId]: String(file.id), ...(names.java && java ? { [names.java]: String(java) } : {}) },
    change: null,
    title: pack.title.slice(0, 200),
    versionNumber,
  };
}

const installsPacks = (template: Template): boolean => curseforgePackVariables(template.install) !== null;

async function namedTemplate(db: Db, id: string): Promise<Template & { id: string }> {
  const template = await getTemplate(db, id);
  if (!installsPacks(template)) throw new KilnError("ErrModPackTemplateNoCurseForge", { template: id });
  return template;
}

/** The first template (by name) whose install takes a CurseForge pack. */
async function firstTemplate(db: Db): Promise<Template & { id: string }> {
  const templates = await allTemplates(db);
  const found = templates.filter(installsPacks).sort((a, b) => a.id.localeCompare(b.id))[0];
  if (!found) throw new KilnError("ErrModPackNoCurseForgeTemplate");
  return found;
}

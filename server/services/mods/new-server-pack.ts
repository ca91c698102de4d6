// A new server made from a Modrinth modpack (POST /api/servers {modpack}, Add server's modpack
// field). Modrinth's version document says what the pack runs on (its loader and Minecraft
// version); the template is the one named, which must run that loader, or else the first (by
// name) whose `addons` statement runs it; the template's game-version variable (the one its
// statement names, `${version}`) is set to the pack's. The pack's own loader version is not in
// that document (only inside the pack): the template installs its own choice of loader for the
// Minecraft version (Fabric's newest, Forge's recommended build), which runs packs made for older
// loaders of the same game version.
//
// The pack itself is handed to the node after the server is created and its install queued: the
// node places it once that install has finished (core/mods/pack.ts, afterInstall), checking then
// that the server runs the pack and every file against the pack's hashes.
import { KilnError } from "../../../core/errors";
import type { PackChange } from "../../../core/mods/pack";
import { LOADERS_OF, type Platform } from "../../../core/mods/types";
import { safeGameVersion } from "../../../core/mods/versions";
import type { Template } from "../../../core/definition";
import { versionVariable } from "../../../core/definition/addons";
import { z } from "../../../core/zod";
import { modpackChoice } from "../../../core/api/schemas";
import type { Db } from "../../../db";
import { allTemplates, getTemplate } from "../templates";
import { ModrinthClient } from "./modrinth";
import { newestVersion, packFile } from "./pack-versions";
import { sourceUrl } from "./sources";
import { newServerCurseForgePack } from "./new-server-curseforge";

export type ModpackChoice = z.infer<typeof modpackChoice>;

export interface NewServerPack {
  /** The template the server is made from. */
  template: string;
  /** The pack's loader (Kiln's platform name), when its source says. */
  loader: Platform | null;
  /** The pack's Minecraft version, when its source says. */
  gameVersion: string | null;
  /** The template variables the pack sets, by name (its Minecraft version; a CurseForge pack's project, file and Java). */
  variables: Record<string, string>;
  /** What the node is asked to place after the install; null when the template's install places the pack itself (a CurseForge server pack). */
  change: (PackChange & { afterInstall: true }) | null;
  title: string;
  versionNumber: string;
}

/** Resolves the pack a new server is made from: its version's file, and the template and variable it needs. */
export async function newServerPack(db: Db, choice: ModpackChoice, templateId: string | undefined): Promise<NewServerPack> {
  if (choice.source === "curseforge") return newServerCurseForgePack(db, choice, templateId);
  const client = new ModrinthClient(await sourceUrl(db, "modrinth"));
  const project = await client.project(choice.projectId);
  if (project.project_type !== "modpack") throw new KilnError("ErrFieldNotBetween", { field: "modpack.projectId" });
  const version = choice.versionId ? await client.version(choice.versionId) : newestVersion(await client.versions(project.id, [], null));
  // A version of another project (a forged or mistaken id) is not this pack's.
  if (!version || version.project_id !== project.id) throw new KilnError("ErrNotFound", { id: choice.versionId ?? choice.projectId });
  const loader = version.loaders.find((l): l is Platform => l === "fabric" || l === "quilt" || l === "forge" || l === "neoforge");
  if (!loader) throw new KilnError("ErrModNoCompatibleVersion", { title: project.title, platform: version.loaders.join(", "), gameVersion: version.game_versions.join(", ") });
  // Modrinth lists the one Minecraft version a pack is made for; the node checks it against the
  // index after the install. It becomes a template variable, which install commands use: only a
  // version's characters pass.
  const gameVersion = version.game_versions[0] === undefined ? null : safeGameVersion(version.game_versions[0]);
  if (version.game_versions[0] !== undefined && !gameVersion) throw new KilnError("ErrModSourceUnavailable", { source: "Modrinth", reason: "the pack's Minecraft version is not a version" });
  const template = templateId ? await namedTemplate(db, templateId, loader) : await firstTemplateFor(db, loader);
  const variable = versionVariable(template.addons);
  const note = `modpack ${project.title} ${version.version_number}`.slice(0, 200);
  return {
    template: template.id,
    loader,
    gameVersion,
    variables: variable && gameVersion ? { [variable]: gameVersion } : {},
    change: { ...packFile(version), origin: { source: "modrinth", projectId: project.id, versionId: version.id, title: project.title, versionNumber: version.version_number }, note, afterInstall: true },
    title: project.title,
    versionNumber: version.version_number,
  };
}

/** Whether the template's servers run `loader`'s mods (its addons statement says which platform). */
const runs = (template: Template, loader: Platform): boolean => template.addons !== undefined && LOADERS_OF[template.addons.platform].includes(loader);

async function namedTemplate(db: Db, id: string, loader: Platform): Promise<Template & { id: string }> {
  const template = await getTemplate(db, id);
  if (!runs(template, loader)) throw new KilnError("ErrModPackWrongTemplate", { template: id, platform: template.addons?.platform ?? "?", loader });
  return template;
}

/** The template for the loader itself before one that also runs it (a Quilt template runs Fabric packs), each by name. */
async function firstTemplateFor(db: Db, loader: Platform): Promise<Template & { id: string }> {
  const candidates = (await allTemplates(db))
    .filter((template) => runs(template, loader))
    .sort((a, b) => Number(b.addons!.platform === loader) - Number(a.addons!.platform === loader) || a.id.localeCompare(b.id));
  if (!candidates[0]) throw new KilnError("ErrModPackNoTemplate", { loader });
  return candidates[0];
}

/**
 * A modpack named in a form's text: a Modrinth project's id or slug, or its page's address
 * (https://modrinth.com/modpack/<slug>, with /version/<id> for one version); or a CurseForge
 * pack's page address (https://www.curseforge.com/minecraft/modpacks/<slug>, with /files/<id> for
 * one file). Null for no text; other text is ErrFieldPatternMismatch (nothing is asked of any source).
 */
export function modpackFromText(text: string): ModpackChoice | null {
  const trimmed = text.trim();
  if (trimmed === "") return null;
  const page = /^https?:\/\/(?:www\.)?modrinth\.com\/modpack\/([A-Za-z0-9_.-]{1,64})(?:\/version\/([A-Za-z0-9_.-]{1,64}))?\/?(?:[?#].*)?$/.exec(trimmed);
  if (page) return { source: "modrinth", projectId: page[1]!, ...(page[2] ? { versionId: page[2] } : {}) };
  const curseforge = /^https?:\/\/(?:www\.)?curseforge\.com\/minecraft\/modpacks\/([A-Za-z0-9_-]{1,64})(?:\/files\/([0-9]{1,10}))?\/?(?:[?#].*)?$/.exec(trimmed);
  if (curseforge) return { source: "curseforge", projectId: curseforge[1]!, ...(curseforge[2] ? { versionId: curseforge[2] } : {}) };
  // A bare id as the creation schema takes one.
  const id = z.safeParse(modpackChoice, { projectId: trimmed });
  if (!id.success) throw new KilnError("ErrFieldPatternMismatch", { field: "modpack", pattern: "https://modrinth.com/modpack/…, https://www.curseforge.com/minecraft/modpacks/…" });
  return id.data;
}

// A change to a server's add-ons as the panel asks the node to make it: files to download (each
// with the size and hash its source gives), files to remove, disable or enable, all in one folder
// (mods/ or plugins/). The node checks every field again (names, hosts, sizes) before acting;
// this schema is that check.
import { z } from "../zod";
import { isEntryName } from "../files/form-name";
import { bytesFromName, canonicalName } from "../files/raw-name";
import type { ErrorCode, ErrorMetadata } from "../errors";
import { safeVersion } from "./versions";
import { MOD_SOURCES } from "./types";

/**
 * A file name in mods/ or plugins/: a plain name (no folder, not hidden) ending in .jar, of the
 * characters release file names use. A name from a source's answer is checked against this before
 * it names anything on disk.
 */
export const ADDON_FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._+\-()[\] ]{0,150}\.jar$/;
/** The largest add-on file a change downloads (the largest mods on Modrinth are about 100 MB). */
export const MAX_ADDON_BYTES = 512 * 1024 * 1024;
/** Files in one change: a modpack's worth. */
export const MAX_CHANGE_FILES = 500;

const fileName = z.string().check(z.regex(ADDON_FILE_NAME));

/** NAME_MAX less ".disabled": a file so named can still be disabled. */
const MAX_INSTALLED_NAME_BYTES = 255 - ".disabled".length;

/**
 * A file already in mods/ or plugins/ (to remove, disable or enable): any name of a .jar there,
 * in its wire form (core/files/raw-name), since the game loads every .jar whatever its name and a
 * server's process or a user names them as it likes. Unlike ADDON_FILE_NAME (a name Kiln gives
 * a download), it is never made, only found: the listing shows it escaped, and an action reaches
 * that exact file.
 */
export function isInstalledFileName(name: string): boolean {
  return name.endsWith(".jar") && name !== ".jar" && isEntryName(name) && canonicalName(name) === name && bytesFromName(name).length <= MAX_INSTALLED_NAME_BYTES;
}

const installedName = z.string().check(z.maxLength(MAX_INSTALLED_NAME_BYTES * 3), z.refine(isInstalledFileName, { params: { kiln: "ErrFieldMustBePrintable" } }));
const hex = (length: number) => z.string().check(z.regex(new RegExp(`^[0-9a-f]{${length}}$`)));

/** A source's id of a project or version (Modrinth's base62 ids and slugs, CurseForge's, Hangar's and Spiget's numbers); never "." or "..", which a URL would resolve as a path step. */
export const SOURCE_ID = /^(?!\.\.?$)[A-Za-z0-9_.-]{1,64}$/;
const sourceId = z.string().check(z.regex(SOURCE_ID));

export const changeAddSchema = z.strictObject({
  url: z.string().check(z.maxLength(2048)),
  fileName,
  size: z.number().check(z.int(), z.gte(0), z.lte(MAX_ADDON_BYTES)),
  sha512: z.optional(hex(128)),
  sha256: z.optional(hex(64)),
  sha1: z.optional(hex(40)),
  /** What the file is, for the node to remember with it (./types AddonOrigin). */
  origin: z.optional(z.strictObject({ source: z.enum(MOD_SOURCES), projectId: sourceId, versionId: sourceId })),
});

export const changeRequestSchema = z.strictObject({
  folder: z.enum(["mods", "plugins"]),
  add: z._default(z.array(changeAddSchema).check(z.maxLength(MAX_CHANGE_FILES)), []),
  remove: z._default(z.array(installedName).check(z.maxLength(MAX_CHANGE_FILES)), []),
  disable: z._default(z.array(installedName).check(z.maxLength(MAX_CHANGE_FILES)), []),
  enable: z._default(z.array(installedName).check(z.maxLength(MAX_CHANGE_FILES)), []),
  /** What the change is, in a few words, for the backup's note. */
  note: z._default(z.string().check(z.maxLength(200)), ""),
});

/**
 * Switching the Minecraft version (`what` game), the loader's own version for the same Minecraft
 * (`what` loader) or a CurseForge modpack's file (`what` pack): the variable the template names for
 * it (its addons statement; for a pack, its curseforge step's file) set to `value`, the install run
 * again (keeping the user's files), then the add-ons' files for the new version in place of the
 * old. Switching the platform (`what` platform, `value` the new one): the definition replaced by
 * `definition`, another template's for the same Minecraft version (`variable` its version
 * variable), and the install run again. A backup first; its undo is restoring it.
 */
export const switchRequestSchema = z.strictObject({
  what: z._default(z.enum(["game", "loader", "pack", "platform"]), "game"),
  variable: z.string().check(z.regex(/^[A-Za-z0-9_]{1,64}$/)),
  value: z.string().check(z.refine((value) => safeVersion(value) !== null, { params: { kiln: "ErrFieldNotBetween" } })),
  folder: z.nullable(z.enum(["mods", "plugins"])),
  add: z._default(z.array(changeAddSchema).check(z.maxLength(MAX_CHANGE_FILES)), []),
  remove: z._default(z.array(installedName).check(z.maxLength(MAX_CHANGE_FILES)), []),
  note: z._default(z.string().check(z.maxLength(200)), ""),
  /** A platform switch, or a CurseForge pack laid onto a server of another template: the server's new definition, the template built with its values; the node checks it. */
  definition: z.optional(z.unknown()),
});

export type ChangeAdd = z.infer<typeof changeAddSchema>;
export type SwitchRequest = z.infer<typeof switchRequestSchema>;
export type ChangeRequest = z.infer<typeof changeRequestSchema>;

export const CHANGE_STATES = ["running", "done", "failed", "undone"] as const;
export type ChangeState = (typeof CHANGE_STATES)[number];

/** A change as the node reports it. */
export interface ChangeStatus {
  changeId: string;
  state: ChangeState;
  /** What it is doing while running: "install" (a new server's pack waits for its install; a version switch installs after its backup), "backup", "download", "place". */
  step?: "install" | "backup" | "download" | "place";
  /** A version switch: the version it switches to (Minecraft's, or the loader's with `switchOf` loader). */
  switchTo?: string;
  switchOf?: "loader" | "pack" | "platform";
  /** Files downloaded so far, of `add`'s. */
  downloaded: number;
  total: number;
  /** The backup taken before it (its short id), once made. */
  backup?: string;
  /** Why it failed: a catalogue error. Nothing was changed then. */
  error?: { code: ErrorCode; metadata?: ErrorMetadata };
  /** Names as placed (added), removed, disabled and enabled, once done. */
  added: string[];
  removed: string[];
  disabled: string[];
  enabled: string[];
  note: string;
  /** ms since the epoch */
  at: number;
}

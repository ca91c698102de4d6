// Names the node stages work under at the top of a server's folder: a modpack made ready to place
// (mods/pack-stage), a CurseForge install's pack and its unpacking (processors/curseforge). They
// sit in the server's folder so that placing is a rename on one filesystem, and they are the
// node's alone while it works: every door a user has to the folder (file API, file manager, SFTP,
// the socket, archives, a task's file steps) refuses to read, write or rename them, through the
// same rule as a template's fileDenylist, whatever that list says (it may not allow them again).
// Deleting one stays possible, as for a denied file; the work it held then fails.
export const STAGING_PREFIX = { pack: ".kiln-pack-", curseforge: ".kiln-curseforge-" } as const;

/** The denylist patterns for them, added after a template's own so that no "!" pattern lifts them. */
export const STAGING_PATTERNS: readonly string[] = Object.values(STAGING_PREFIX).map((prefix) => `/${prefix}*`);

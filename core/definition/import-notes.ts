// What the template importer changed or read by another format's rules, so nothing changes
// silently: every conversion lists its notes (the editor shows them, translated by `rule` under
// templates.importNote.*; the import routes answer them).

export const IMPORT_NOTE_RULES = [
  /**
   * nothing told PufferPanel 2.x from Kiln's format but the way its variables are written (flags
   * left unsaid, numbers as text): read as 2.x reads them (an unsaid flag is false, the safe
   * reading), each change written out (flagDefault).
   */
  "unmarkedV2",
  /** `required` or `userEdit` was missing: PufferPanel reads a missing flag as false, written out. */
  "flagDefault",
  /** an HTML description became markdown (http(s) links kept, other tags removed). */
  "description",
  /** an `internal` variable: hidden in PufferPanel, so neither required from nor editable by users. */
  "internal",
  /** `${name}` inside a shell script became a read of the exported environment variable. */
  "scriptVariable",
  /** a value of the wrong type for its variable: read as PufferPanel reads it, or the variable made a text one. */
  "valueType",
  /** no supportedEnvironments: the template's environment is the only one (as PufferPanel imports it). */
  "supportedEnvironments",
  /** run.program and run.arguments (the legacy form) became run.command. */
  "legacyRun",
  /**
   * a variable that holds several options (JVM arguments) and stands alone as a word of a command
   * line: split into words at start, as PufferPanel's substitute-then-split gives it.
   */
  "splitWords",
  /** a template name Kiln cannot use as an id (`+`) was changed. */
  "name",
  /** a field the old format had and Kiln has no use for was left out. */
  "dropped",
  // Eggs (./egg): what is read differently or left for the administrator to decide.
  /** a Laravel rule Kiln does not enforce was left out (detail: the rule). */
  "eggRule",
  /** a pattern of the variable's rules Kiln cannot check (PCRE-only syntax, or one pattern too many): left out (detail: why). */
  "eggPattern",
  /** a variable name Pelican reserves, or Kiln never exports, got the SERVER_ prefix (detail: the new name). */
  "eggReservedName",
  /** viewable but not editable by users: Kiln shows users only the variables they may edit. */
  "eggReadOnly",
  /** the default value fails the variable's own checks (detail: the error code): set one before making a server. */
  "eggDefault",
  /** PLCN_v3 lists several startup commands: a server chooses with an option variable (detail: its name). */
  "eggStartupChoice",
  /** a {{…}} placeholder the runtime images do not expand was left in the startup line (detail: which). */
  "eggPlaceholder",
  /** config.stop named a signal Wings reads differently (detail: the signal Kiln sends). */
  "eggStop",
  /** a field Kiln cannot map (detail: its value): the administrator decides. */
  "eggNotMapped",
  /** feature eula: asked as a variable, eula.txt written before each start (detail: the variable). */
  "eggFeatureEula",
  /** feature java_version: the Java version is the image chosen among those offered. */
  "eggFeatureJava",
  /** feature pid_limit: the process limit is the administrator's (resource limits). */
  "eggFeaturePidLimit",
  /** feature steam_disk_space: a SteamCMD download that fails for space shows in the install log. */
  "eggFeatureSteamDisk",
  /** what the servers run was read from where the install script downloads them (detail: the platform and its version variable): ./egg-addons. */
  "eggPlatform",
] as const;

export type ImportNoteRule = (typeof IMPORT_NOTE_RULES)[number];

export interface ImportNote {
  rule: ImportNoteRule;
  /** where, as a path into the template ("data.memory.userEdit", "install.2.commands.0") */
  field: string;
  /** what it became or why, when the rule alone does not say ("false", "$memory") */
  detail?: string;
}

// What the template importer changed or read by another format's rules, so nothing changes
// silently: every conversion lists its notes (the editor shows them, translated by `rule` under
// templates.importNote.*; the import routes answer them).

export const IMPORT_NOTE_RULES = [
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
  /** a template name Kiln cannot use as an id (`+`) was changed. */
  "name",
  /** a field the old format had and Kiln has no use for was left out. */
  "dropped",
] as const;

export type ImportNoteRule = (typeof IMPORT_NOTE_RULES)[number];

export interface ImportNote {
  rule: ImportNoteRule;
  /** where, as a path into the template ("data.memory.userEdit", "install.2.commands.0") */
  field: string;
  /** what it became or why, when the rule alone does not say ("false", "$memory") */
  detail?: string;
}

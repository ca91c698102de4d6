// The definition editor's form model and the pure conversions between it and definition JSON.
// The form is what the editor's pieces edit; the JSON is what the node stores. Converting back
// starts from the object the form came from, so fields the editor does not know survive.
import { DEFAULT_BIND_HOST, parsePortBinding } from "../../core/definition/constants";

export type Json = Record<string, unknown>;

export interface Pair {
  key: string;
  value: string;
}

/** One port binding row; ports are text while typed. `source` is the string the row came from. */
export interface PortRow {
  host: string;
  outside: string;
  inside: string;
  protocol: string;
  source?: string;
}

export type StopSetting = { type: "command"; value: string } | { type: "signal"; value: number };
export type StopType = StopSetting["type"];
export const STOP_TYPES = ["command", "signal"] as const satisfies readonly StopType[];

/** A step as JSON: its type plus whatever fields it carries (unknown ones are kept). */
export type StepValue = Json & { type: string };

/** A template variable as JSON, plus the name it is keyed by in `data`. */
export interface VariableEntry {
  name: string;
  variable: Json;
}

export interface EnvironmentForm {
  type: string;
  image: string;
  networkMode: string;
  networkName: string;
  bindings: Pair[];
  portBindings: PortRow[];
  /** the environment object it came from, for fields the form does not show */
  base: Json;
}

/**
 * A template's environments: the supported list, one entry per type, and
 * which of them is the default. The default is kept by type, so it follows its entry's edits.
 */
export interface EnvironmentsForm {
  list: EnvironmentForm[];
  defaultType: string;
}

export interface DefinitionForm {
  /** the whole definition the form came from */
  base: Json;
  display: string;
  type: string;
  readme: string;
  variables: VariableEntry[];
  install: StepValue[];
  pre: StepValue[];
  post: StepValue[];
  command: string;
  /** PufferPanel v3's list of {command, if} (each entry as stored), or null for one command line */
  commandEntries: Json[] | null;
  /** run.stdin: the console the commands go through; null when the template names none (the process's input) */
  stdin: Json | null;
  /** variable groups (v3): null when the template has none */
  groups: Json[] | null;
  workingDirectory: string;
  stop: StopSetting;
  environmentVars: Pair[];
  /** a server's single environment */
  environment: EnvironmentForm;
  /** a template's environments; null when editing a server */
  environments: EnvironmentsForm | null;
}

const DOCKER_FIELDS = ["image", "networkMode", "networkName", "bindings", "portBindings"] as const;
const DEFAULT_NETWORK_MODE = "host";

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A JSON value as the text a field shows. */
export const str = (value: unknown): string => (typeof value === "string" ? value : value === undefined || value === null ? "" : String(value));

/** A JSON text that is an object, or null (arrays, numbers and broken text are not definitions). */
export function parseDefinitionJson(text: string): Json | null {
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

// ── key-value maps ────────────────────────────────────────────────────────────────────────────

export function recordToPairs(record: unknown): Pair[] {
  return isObject(record) ? Object.entries(record).map(([key, value]) => ({ key, value: str(value) })) : [];
}

/** Rows with a blank key are left out (there is nothing to store them under); a repeated key keeps its last value. */
export function pairsToRecord(pairs: readonly Pair[]): Record<string, string> {
  const record: Record<string, string> = {};
  for (const { key, value } of pairs) if (key.trim() !== "") record[key.trim()] = value;
  return record;
}

// ── port bindings ─────────────────────────────────────────────────────────────────────────────

export function emptyPortRow(): PortRow {
  return { host: DEFAULT_BIND_HOST, outside: "", inside: "", protocol: "tcp" };
}

export function portRowFromString(source: string): PortRow {
  const parsed = parsePortBinding(source);
  if (parsed) return { host: parsed.host, outside: String(parsed.outside), inside: String(parsed.inside), protocol: parsed.protocol, source };
  // Not a binding the node understands: show its parts as best we can, keep the text until edited.
  const [address = "", protocol = ""] = source.split("/");
  const parts = address.split(":");
  const inside = parts.length > 1 ? parts.pop()! : "";
  const outside = parts.pop() ?? "";
  return { host: parts.join(":"), outside, inside, protocol, source };
}

function sameRow(a: PortRow, b: PortRow): boolean {
  return a.host === b.host && a.outside === b.outside && a.inside === b.inside && a.protocol === b.protocol;
}

/** "host:outside:inside/protocol"; an unedited row gives back the exact text it came from. */
export function portRowToString(row: PortRow): string {
  if (row.source !== undefined && sameRow(portRowFromString(row.source), row)) return row.source;
  const outside = row.outside.trim();
  const inside = row.inside.trim() || outside;
  return `${row.host.trim() || DEFAULT_BIND_HOST}:${outside}:${inside}/${row.protocol.trim().toLowerCase() || "tcp"}`;
}

/** Rows with neither port filled in are left out: an added row nobody filled is not a binding. */
export function portRowsToStrings(rows: readonly PortRow[]): string[] {
  return rows.filter((row) => row.outside.trim() !== "" || row.inside.trim() !== "" || row.source !== undefined).map(portRowToString);
}

// ── stop setting ──────────────────────────────────────────────────────────────────────────────

export function stopFromRun(run: Json): StopSetting {
  if (typeof run.stopCode === "number") return { type: "signal", value: run.stopCode };
  return { type: "command", value: str(run.stop) };
}

/** Switching the stop type resets the value to empty text or 0. */
export function switchStopType(stop: StopSetting, type: StopType): StopSetting {
  if (stop.type === type) return stop;
  return type === "signal" ? { type, value: 0 } : { type, value: "" };
}

/**
 * Only one of `stop` and `stopCode` is set. A blank command sets neither: the node then sends
 * SIGTERM, which is what an empty stop command would amount to anyway.
 */
export function applyStop(run: Json, stop: StopSetting): Json {
  const { stop: _command, stopCode: _code, ...rest } = run;
  if (stop.type === "signal") return { ...rest, stopCode: stop.value };
  return stop.value === "" ? rest : { ...rest, stop: stop.value };
}

// ── environment ───────────────────────────────────────────────────────────────────────────────

export function environmentToForm(value: unknown): EnvironmentForm {
  const env = isObject(value) ? value : { type: "standard" };
  return {
    type: str(env.type) || "standard",
    image: str(env.image),
    networkMode: str(env.networkMode) || DEFAULT_NETWORK_MODE,
    networkName: str(env.networkName),
    bindings: recordToPairs(env.bindings),
    portBindings: Array.isArray(env.portBindings) ? env.portBindings.map((s) => portRowFromString(str(s))) : [],
    base: env,
  };
}

/** Docker fields are written only for docker; switching away and back within one edit keeps them. */
export function formToEnvironment(form: EnvironmentForm): Json {
  const rest: Json = { ...form.base };
  for (const field of DOCKER_FIELDS) delete rest[field];
  if (form.type !== "docker") return { ...rest, type: form.type };
  const env: Json = { ...rest, type: "docker" };
  // A blank image means "the default image": left out so the node fills it in.
  if (form.image.trim() !== "") env.image = form.image.trim();
  env.networkMode = form.networkMode;
  env.networkName = form.networkName;
  env.bindings = pairsToRecord(form.bindings);
  env.portBindings = portRowsToStrings(form.portBindings);
  return env;
}

/**
 * The list after a change: an entry may be added only when its type is not there yet (a second
 * one of a type is refused, null), and the default is reset to the matching entry, or the first.
 */
export function withEnvironmentList(form: EnvironmentsForm, list: EnvironmentForm[]): EnvironmentsForm | null {
  const types = list.map((e) => e.type);
  if (new Set(types).size !== types.length) return null;
  return { list, defaultType: types.includes(form.defaultType) ? form.defaultType : (types[0] ?? "") };
}

/** Environment types not in the list yet: what Add offers (plus, when editing, the entry's own). */
export function unusedEnvironmentTypes(list: readonly EnvironmentForm[], all: readonly string[], own?: string): string[] {
  return all.filter((type) => type === own || !list.some((e) => e.type === type));
}

function environmentsToForm(definition: Json): EnvironmentsForm {
  const supported = Array.isArray(definition.supportedEnvironments) ? definition.supportedEnvironments.filter(isObject) : [];
  const chosen = environmentToForm(definition.environment);
  // A template that lists nothing supports at least its default environment.
  const list = supported.length > 0 ? supported.map(environmentToForm) : [chosen];
  const unique = list.filter((env, i) => list.findIndex((e) => e.type === env.type) === i);
  return { list: unique, defaultType: unique.some((e) => e.type === chosen.type) ? chosen.type : (unique[0]?.type ?? "standard") };
}

function formToEnvironments(form: EnvironmentsForm): { environment: Json; supportedEnvironments: Json[] } {
  const supportedEnvironments = form.list.map(formToEnvironment);
  const index = Math.max(0, form.list.findIndex((e) => e.type === form.defaultType));
  return { environment: supportedEnvironments[index] ?? { type: "standard" }, supportedEnvironments };
}

// ── variables ─────────────────────────────────────────────────────────────────────────────────

/** A variable name is not blank and has no spaces. */
export function isValidVariableName(name: string): boolean {
  return name !== "" && !/\s/.test(name);
}

export function newVariable(): VariableEntry {
  return { name: "", variable: { display: "", desc: "", type: "string", value: "", required: true, userEdit: true } };
}

export interface VariableOption {
  value: unknown;
  display: string;
}

export function variableOptions(variable: Json): VariableOption[] {
  return Array.isArray(variable.options) ? variable.options.filter(isObject).map((o) => ({ ...o, value: o.value ?? "", display: str(o.display) })) : [];
}

/** Changes a variable's type; the value follows the type, and option creates an empty options list if none. */
export function changeVariableType(variable: Json, type: string): Json {
  const next: Json = { ...variable, type };
  const value = variable.value;
  if (type === "boolean") next.value = value === true || value === "true";
  else if (type === "integer") next.value = Number.isFinite(Number(value)) && value !== "" && typeof value !== "boolean" ? Math.trunc(Number(value)) : 0;
  else if (typeof value !== "string") next.value = value === undefined ? "" : String(value);
  if (type === "option" && !Array.isArray(next.options)) next.options = [];
  return next;
}

// ── the whole definition ──────────────────────────────────────────────────────────────────────

const steps = (value: unknown): StepValue[] => (Array.isArray(value) ? value.filter(isObject).map((s) => ({ ...s, type: str(s.type) })) : []);

/** `template`: the definition is a template, edited with its list of environments. */
export function definitionToForm(definition: Json, { template = false } = {}): DefinitionForm {
  const run = isObject(definition.run) ? definition.run : {};
  const data = isObject(definition.data) ? definition.data : {};
  return {
    base: definition,
    display: str(definition.display),
    type: str(definition.type),
    readme: str(definition.readme),
    variables: Object.entries(data).map(([name, variable]) => ({ name, variable: isObject(variable) ? variable : { value: variable } })),
    install: steps(definition.install),
    pre: steps(run.pre),
    post: steps(run.post),
    // The schema also takes a list of commands, joined with " && "; the editor shows one line.
    // A list holding {command, if} entries is v3's choice of start command, edited as entries.
    command: Array.isArray(run.command) ? (commandEntries(run.command) ? "" : run.command.map(str).join(" && ")) : str(run.command),
    commandEntries: commandEntries(run.command),
    stdin: isObject(run.stdin) ? run.stdin : null,
    groups: Array.isArray(definition.groups) ? definition.groups.filter(isObject) : null,
    workingDirectory: str(run.workingDirectory),
    stop: stopFromRun(run),
    environmentVars: recordToPairs(run.environmentVars),
    environment: environmentToForm(definition.environment),
    environments: template ? environmentsToForm(definition) : null,
  };
}

/** A run.command list with entries in it, each an object ({command, if}); else null. */
function commandEntries(command: unknown): Json[] | null {
  if (!Array.isArray(command) || !command.some(isObject)) return null;
  return command.map((entry) => (isObject(entry) ? entry : { command: str(entry) }));
}

export function formToDefinition(form: DefinitionForm): Json {
  const { stdin: _stdin, ...baseRun } = isObject(form.base.run) ? form.base.run : {};
  const run = applyStop(
    {
      ...baseRun,
      command: form.commandEntries ?? form.command,
      workingDirectory: form.workingDirectory,
      pre: form.pre,
      post: form.post,
      environmentVars: pairsToRecord(form.environmentVars),
      ...(form.stdin ? { stdin: form.stdin } : {}),
    },
    form.stop,
  );
  const definition: Json = {
    ...form.base,
    display: form.display,
    type: form.type,
    install: form.install,
    run,
    data: Object.fromEntries(form.variables.map(({ name, variable }) => [name, variable])),
    ...(form.environments ? formToEnvironments(form.environments) : { environment: formToEnvironment(form.environment) }),
  };
  if (form.readme !== "" || "readme" in form.base) definition.readme = form.readme;
  if (form.groups) definition.groups = form.groups;
  return definition;
}

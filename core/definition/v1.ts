// Version-1 templates (the PufferPanel 1.x / pufferd format) and their conversion to Kiln's
// template format. Pure and zod-free, so the panel and browser code (the template editor's
// import) can both use it; the result is plain JSON for templateSchema to parse.
//
// A 1.x template is `{ "pufferd": { type, display, install: { commands, windows }, run: {
// program, arguments, stop | stopCode, pre, post, environmentVars }, environment, data } }`,
// or that inner object on its own. Every value in `data` is a string there; `internal: true`
// hides a variable from users; `${rootdir}` names the server folder.
import { DOCKER_NETWORK_MODES, ENVIRONMENT_TYPES, JAVA_VERSIONS, STEP_TYPES, VARIABLE_TYPES } from "./constants";
import { joinCommandLine } from "./command-line";
import { hasHtml, htmlToMarkdown } from "./html-description";
import type { ImportNote } from "./import-notes";

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Whether `value` is a 1.x template: the `{ "pufferd": { … } }` wrapper, or the bare inner
 * object recognised by its 1.x-only shapes (`run.program` / `run.arguments` without
 * `run.command`, or an `install` object holding a `commands` list). Kiln templates (`run.command`,
 * `install` as a list) and anything else are not.
 */
export function looksLikeV1Template(value: unknown): boolean {
  if (!isObject(value)) return false;
  if (isObject(value.pufferd)) return true;
  const { run, install } = value;
  if (isObject(run) && !("command" in run) && (typeof run.program === "string" || Array.isArray(run.arguments))) return true;
  return isObject(install) && Array.isArray(install.commands);
}

/**
 * Converts a 1.x template (wrapped or bare) into a Kiln template, as plain JSON that
 * templateSchema accepts. `name` is the template's name (a 1.x template took it from its file
 * name); without it one is made from the display name.
 *
 * It never throws: anything that is not an object counts as an empty template, a missing or
 * malformed section becomes its default, and a step or variable that cannot be read (not an
 * object, unknown step type, required field missing) is dropped. Fields 1.x had and Kiln does
 * not (install's `windows` list, a variable's `internal` once turned into `userEdit`, docker's
 * `enforceNetwork`, …) are dropped too. Every drop and every changed description is listed in
 * `notes` when given, so nothing vanishes silently.
 *
 * Rules:
 * - display: `display`, else `type`, else the name. type: `type`, else "other".
 * - install: `install.commands` (or `install` itself when it is a list).
 * - run.command: program and arguments joined with joinCommandLine, so splitCommandLine gives
 *   back exactly the argv 1.x ran (an argument such as "-game ${gametype}" stays one word).
 *   stop / stopCode, pre, post, environmentVars, autostart, autorestart and autorecover are
 *   carried (the three switches off unless set); other run fields (`enabled`) are listed as dropped.
 * - data: integer values become numbers and boolean values true/false; a value that does not
 *   read as its type makes the variable a string one. userEdit = !internal; required as written
 *   (false when missing, as PufferPanel reads it) and never for an internal one; display falls back to the variable's name; desc's HTML becomes markdown.
 * - environment: the 1.x one (standard, tty or docker with its image and network fields);
 *   supportedEnvironments lists just it.
 * - `${rootdir}` becomes `${rootDir}` in every string.
 */
export function convertV1Template(value: unknown, name?: string, notes: ImportNote[] = []): Record<string, unknown> {
  const source = isObject(value) ? (isObject(value.pufferd) ? value.pufferd : value) : {};
  const type = nonEmpty(source.type);
  const display = nonEmpty(source.display) ?? type ?? nonEmpty(name) ?? "";
  const templateName = nonEmpty(name) ?? (slug(display) || "template");

  const install = source.install;
  const installSteps = Array.isArray(install) ? install : isObject(install) && Array.isArray(install.commands) ? install.commands : [];
  const environment = convertEnvironment(source.environment, notes);
  if (isObject(install) && Array.isArray(install.windows) && install.windows.length) notes.push({ rule: "dropped", field: "install.windows" });
  for (const key of Object.keys(source)) if (!V1_FIELDS.has(key)) notes.push({ rule: "dropped", field: key });

  const template: Json = {
    name: templateName,
    display: display || templateName,
    type: type ?? "other",
    install: convertSteps(installSteps, "install", notes),
    run: convertRun(isObject(source.run) ? source.run : {}, notes),
    data: convertData(source.data, notes),
    environment,
    supportedEnvironments: [{ ...environment }],
    // 1.x templates declared no requirements, so none are invented: a template that ran
    // anywhere still may. The one thing known for sure is when install had a separate
    // `windows` list: the steps kept are the non-Windows ones (1.x ran them on Linux and macOS).
    requirements: isObject(install) && Array.isArray(install.windows) ? { os: "linux,darwin" } : {},
  };
  return fixRootDir(template) as Json;
}

// --- run ---------------------------------------------------------------------------------

/** The fields of a 1.x template this conversion reads; any other is listed as dropped. */
const V1_FIELDS = new Set(["type", "display", "install", "run", "data", "environment", "id", "name"]);
const V1_RUN_FIELDS = new Set(["program", "arguments", "stop", "stopCode", "pre", "post", "environmentVars", "autostart", "autorestart", "autorecover"]);

function convertRun(run: Json, notes: ImportNote[]): Json {
  const program = scalar(run.program);
  const args = Array.isArray(run.arguments) ? run.arguments.map(scalar).filter((a): a is string => a !== undefined) : [];
  const out: Json = {
    command: program ? joinCommandLine([program, ...args]) : "",
    workingDirectory: "",
  };
  const stop = typeof run.stop === "string" && run.stop !== "" ? run.stop : undefined;
  if (stop !== undefined) out.stop = stop;
  const stopCode = typeof run.stopCode === "number" ? run.stopCode : typeof run.stopCode === "string" && /^\s*\d+\s*$/.test(run.stopCode) ? Number(run.stopCode) : NaN;
  if (Number.isInteger(stopCode) && stopCode >= 1 && stopCode <= 64) out.stopCode = stopCode;
  out.pre = convertSteps(run.pre, "run.pre", notes);
  out.post = convertSteps(run.post, "run.post", notes);
  out.environmentVars = stringMap(run.environmentVars);
  for (const flag of ["autostart", "autorestart", "autorecover"] as const) out[flag] = readBoolean(run[flag]) ?? false;
  for (const key of Object.keys(run)) if (!V1_RUN_FIELDS.has(key)) notes.push({ rule: "dropped", field: `run.${key}` });
  return out;
}

// --- steps -------------------------------------------------------------------------------

function convertSteps(steps: unknown, section: string, notes: ImportNote[]): Json[] {
  if (!Array.isArray(steps)) return [];
  return steps.flatMap((step, i) => {
    const converted = convertStep(step);
    if (converted === null) notes.push({ rule: "dropped", field: `${section}.${i}`, detail: isObject(step) && typeof step.type === "string" ? step.type : undefined });
    return converted === null ? [] : [converted];
  });
}

/** One step in Kiln's shape, or null when it cannot be one. */
function convertStep(step: unknown): Json | null {
  if (!isObject(step) || typeof step.type !== "string") return null;
  const type = step.type.toLowerCase();
  if (!(STEP_TYPES as readonly string[]).includes(type)) return null;
  const s = (key: string) => scalar(step[key]);
  const need = (fields: Record<string, string | undefined>): Json | null =>
    Object.values(fields).every((v) => v !== undefined && v !== "") ? { type, ...fields } : null;
  switch (type) {
    case "download": {
      const files = stringList(step.files);
      return files.length ? { type, files } : null;
    }
    case "command": {
      const commands = stringList(step.commands);
      return commands.length ? { type, commands } : null;
    }
    case "move":
      return need({ source: s("source"), target: s("target") });
    case "mkdir":
      return need({ target: s("target") });
    case "writefile": {
      const target = s("target");
      return target ? { type, target, text: s("text") ?? "" } : null;
    }
    case "alterfile": {
      const file = s("file");
      const search = s("search");
      if (!file || !search) return null;
      return { type, file, regex: typeof step.regex === "boolean" ? step.regex : step.regex !== "false", search, replace: s("replace") ?? "" };
    }
    case "mojangdl":
      return need({ version: s("version"), target: s("target") });
    case "forgedl":
      // 1.x named the jar `target`; Kiln calls it `filename`.
      return need({ version: s("version"), filename: s("filename") ?? s("target") });
    case "spongeforgedl":
      // 1.x defaulted the release type to "recommended".
      return { type, releaseType: s("releaseType") || "recommended" };
    case "fabricdl":
      return need({ targetFile: s("targetFile") });
    case "javadl": {
      const version = Number(s("version"));
      return (JAVA_VERSIONS as readonly number[]).includes(version) ? { type, version } : null;
    }
    case "steamgamedl":
      return need({ appId: s("appId") });
    default:
      return null;
  }
}

// --- data --------------------------------------------------------------------------------

function convertData(data: unknown, notes: ImportNote[]): Json {
  if (!isObject(data)) return {};
  const out: [string, Json][] = [];
  for (const [key, variable] of Object.entries(data)) {
    if (key === "__proto__" || !isObject(variable)) {
      notes.push({ rule: "dropped", field: `data.${key}` });
      continue;
    }
    out.push([key, convertVariable(key, variable, notes)]);
  }
  return Object.fromEntries(out);
}

function convertVariable(key: string, v: Json, notes: ImportNote[]): Json {
  const declared = typeof v.type === "string" ? v.type.toLowerCase() : "string";
  let type: string = (VARIABLE_TYPES as readonly string[]).includes(declared) ? declared : "string";
  const raw = v.value;
  let value: string | number | boolean = typeof raw === "string" || typeof raw === "number" || typeof raw === "boolean" ? raw : "";

  const options = Array.isArray(v.options) ? v.options.map(convertOption).filter((o): o is Json => o !== null) : [];

  if (type === "integer") {
    const n = typeof value === "number" ? value : typeof value === "string" && /^\s*[+-]?\d+\s*$/.test(value) ? Number(value) : NaN;
    if (Number.isSafeInteger(n)) value = n;
    else type = "string";
  } else if (type === "boolean") {
    const b = readBoolean(value);
    if (b !== undefined) value = b;
    else type = "string";
  } else if (type === "option" && options.length === 0) {
    type = "string"; // a choice with nothing to choose from is just a text field
  }
  if (type === "string" || type === "option") value = typeof value === "string" ? value : String(value);

  const internal = readBoolean(v.internal) ?? false;
  const out: Json = {
    display: nonEmpty(v.display) ?? key,
    desc: typeof v.desc === "string" ? description(v.desc, `data.${key}.desc`, notes) : "",
    type,
    value,
    // As PufferPanel reads it: a missing flag is false, and an internal variable is hidden from
    // users, so neither asked of them nor theirs to change.
    required: (readBoolean(v.required) ?? false) && !internal,
    userEdit: !internal,
  };
  if (options.length) out.options = options;
  return out;
}

function description(text: string, field: string, notes: ImportNote[]): string {
  if (!hasHtml(text)) return text.trim();
  notes.push({ rule: "description", field });
  return htmlToMarkdown(text);
}

/** 1.x options were either plain values or { value, display } pairs. */
function convertOption(option: unknown): Json | null {
  if (typeof option === "string" || typeof option === "number" || typeof option === "boolean") return { value: option, display: String(option) };
  if (!isObject(option)) return null;
  const value = option.value;
  if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") return null;
  return { value, display: nonEmpty(option.display) ?? String(value) };
}

/** true/false, also written as "true"/"false"/"1"/"0" (and "" for false); else undefined. */
function readBoolean(value: unknown): boolean | undefined {
  if (typeof value === "boolean") return value;
  if (value === 1 || value === 0) return value === 1;
  if (typeof value !== "string") return undefined;
  const v = value.trim().toLowerCase();
  if (v === "true" || v === "1") return true;
  if (v === "false" || v === "0" || v === "") return false;
  return undefined;
}

// --- environment -------------------------------------------------------------------------

/** The environment fields this conversion reads; any other (docker's `enforceNetwork`, …) is listed as dropped. */
const V1_ENVIRONMENT_FIELDS = new Set(["type", "image", "networkMode", "networkName", "bindings", "portBindings"]);

function convertEnvironment(env: unknown, notes: ImportNote[]): Json {
  if (!isObject(env)) return { type: "standard" };
  for (const key of Object.keys(env)) if (!V1_ENVIRONMENT_FIELDS.has(key)) notes.push({ rule: "dropped", field: `environment.${key}` });
  const type = typeof env.type === "string" ? env.type.toLowerCase() : "";
  if (!(ENVIRONMENT_TYPES as readonly string[]).includes(type)) {
    notes.push({ rule: "dropped", field: "environment.type", detail: String(env.type ?? "") });
    return { type: "standard" };
  }
  if (type !== "docker") return { type };
  const out: Json = { type };
  const image = nonEmpty(env.image);
  if (image) out.image = image; // none: Kiln's default image
  if (typeof env.networkMode === "string" && (DOCKER_NETWORK_MODES as readonly string[]).includes(env.networkMode)) out.networkMode = env.networkMode;
  if (typeof env.networkName === "string") out.networkName = env.networkName;
  if (isObject(env.bindings)) out.bindings = stringMap(env.bindings);
  if (Array.isArray(env.portBindings)) out.portBindings = stringList(env.portBindings);
  return out;
}

// --- small readers -----------------------------------------------------------------------

/** A string, or a number or boolean written as one; undefined for anything else. */
function scalar(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if ((typeof value === "number" && Number.isFinite(value)) || typeof value === "boolean") return String(value);
  return undefined;
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

/** A string or a list of them (1.x wrote both); other entries are dropped. */
function stringList(value: unknown): string[] {
  const list = Array.isArray(value) ? value : [value];
  return list.map(scalar).filter((v): v is string => v !== undefined && v !== "");
}

function stringMap(value: unknown): Record<string, string> {
  if (!isObject(value)) return {};
  const entries = Object.entries(value)
    .filter(([key]) => key !== "__proto__")
    .map(([key, v]) => [key, scalar(v)] as const)
    .filter((e): e is readonly [string, string] => e[1] !== undefined);
  return Object.fromEntries(entries);
}

/** A template name from a display name: "Spigot - Minecraft" → "spigot-minecraft". */
function slug(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .slice(0, 64)
    .replace(/^-+|-+$/g, "");
}

/** 1.x's `${rootdir}` is Kiln's `${rootDir}`; replaced in every string of the converted template. */
function fixRootDir(value: unknown): unknown {
  if (typeof value === "string") return value.replaceAll("${rootdir}", "${rootDir}");
  if (Array.isArray(value)) return value.map(fixRootDir);
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fixRootDir(v)]));
  return value;
}

// Pterodactyl and Pelican eggs (meta.version PTDL_v1, PTDL_v2, PLCN_v1–PLCN_v3) read into Kiln's
// template format, as Pelican's importer reads them (EggImporterService) and Wings
// runs them:
// - the docker environment with the egg runtime's conventions ("egg"), its images offered
//   (docker_images; PTDL_v1's images or image), the first one chosen;
// - the startup line and the stop instruction (./egg-startup); PLCN_v3's several startup_commands,
//   which Pelican lets a server choose among, as run.command entries chosen by an option variable
//   (its "Default", else the first, without a condition); config.startup's done lines as
//   run.readyMarkers;
// - config.files as configfile steps before every start (./egg-config-files);
// - scripts.installation as one containerscript install step (its image and entrypoint as given,
//   the script with Windows line ends made Unix ones, as Wings does);
// - variables with their Laravel rules (./egg-rules): user_viewable and user_editable make
//   userEdit (Kiln shows users only the variables they may edit); a name Pelican reserves, or one
//   Kiln never exports into an environment, gets Pelican's SERVER_ prefix, everywhere it is used;
// - features as what Kiln has for them (eula: a variable and eula.txt written before each start),
//   file_denylist as fileDenylist, the description as the readme.
// Every field that is left out or read differently is noted (./import-notes), and an egg that
// cannot run (no image, a config file outside the server's folder, a broken field) is refused
// with the field, never stored half.
import { KilnError } from "../errors";
import type { ImportNote } from "./import-notes";
import { isObject, type Json } from "./v2";
import { isExportedName, SERVER_ONLY_NAMES } from "./invocation";
import { isReservedKey } from "./object-keys";
import { readLaravelRules } from "./egg-rules";
import { translateStartup, translateStop } from "./egg-startup";
import { configFileSteps, jsonField } from "./egg-config-files";
import { eggAddons } from "./egg-addons";
import { checkVariableValueButPattern } from "./variable-value";
import type { Variable } from "./template";

export const EGG_VERSIONS = ["PTDL_v1", "PTDL_v2", "PLCN_v1", "PLCN_v2", "PLCN_v3"] as const;

/** Names Pelican refuses for a variable and renames with a SERVER_ prefix (EggVariable::RESERVED_ENV_NAMES). */
const RESERVED_NAMES = new Set(["P_SERVER_UUID", "P_SERVER_ALLOCATION_LIMIT", "SERVER_MEMORY", "SERVER_IP", "SERVER_PORT", "ENV", "HOME", "USER", "STARTUP", "MODIFIED_STARTUP", "SERVER_UUID", "UUID", "INTERNAL_IP", "HOSTNAME", "TERM", "LANG", "PWD", "TZ", "TIMEZONE"]);

/** Most variables an egg may have, and its longest install script and startup line: far above any egg's. */
const MAX_VARIABLES = 200;
const MAX_SCRIPT = 256 * 1024;
const MAX_STARTUP = 8 * 1024;

/** The egg version of `value`, when it is an egg Kiln reads. */
export function eggVersion(value: unknown): (typeof EGG_VERSIONS)[number] | undefined {
  const version = isObject(value) && isObject(value.meta) ? value.meta.version : undefined;
  return (EGG_VERSIONS as readonly unknown[]).includes(version) ? (version as (typeof EGG_VERSIONS)[number]) : undefined;
}

export const looksLikeEgg = (value: unknown): boolean => eggVersion(value) !== undefined;

const refuse = (field: string, expected: string) => new KilnError("ErrTemplateFieldInvalid", { field, expected }, `invalid egg: ${field}: ${expected}`);
const text = (value: unknown): string => (typeof value === "string" ? value : value === undefined || value === null ? "" : String(value));

/** The images offered: docker_images ({display: image} or a list), else PTDL_v1's images or image. */
function imagesOf(egg: Json): Array<{ display: string; image: string }> {
  const source = egg.docker_images ?? egg.images ?? (typeof egg.image === "string" && !egg.image.startsWith("data:") ? [egg.image] : undefined);
  const pairs: Array<[string, unknown]> = Array.isArray(source) ? source.map((image) => [text(image), image]) : isObject(source) ? Object.entries(source) : [];
  return pairs.filter(([, image]) => typeof image === "string" && image.trim() !== "").map(([display, image]) => ({ display: display.trim() || (image as string), image: (image as string).trim() }));
}

/** Most startup commands a PLCN_v3 egg may offer. */
const MAX_STARTUP_COMMANDS = 20;

/** The startup lines by name: PTDL's one startup, or PLCN_v3's startup_commands with the default (Default, else the first) first. */
function startupsOf(egg: Json): Array<[name: string, line: string]> {
  if (typeof egg.startup === "string") {
    if (egg.startup.length > MAX_STARTUP) throw refuse("startup", `a command of at most ${MAX_STARTUP / 1024} KiB`);
    if (egg.startup.trim() === "") throw refuse("startup", "a startup command");
    return [["Default", egg.startup]];
  }
  const commands = (isObject(egg.startup_commands) ? Object.entries(egg.startup_commands) : []).filter((c): c is [string, string] => typeof c[1] === "string" && c[1].trim() !== "");
  if (commands.length === 0) throw refuse("startup", "a startup command");
  if (commands.length > MAX_STARTUP_COMMANDS) throw refuse("startup_commands", `at most ${MAX_STARTUP_COMMANDS} commands`);
  for (const [name, line] of commands) if (line.length > MAX_STARTUP) throw refuse(`startup_commands.${name}`, `a command of at most ${MAX_STARTUP / 1024} KiB`);
  const chosen = commands.find(([name]) => name === "Default") ?? commands[0]!;
  return [chosen, ...commands.filter((c) => c !== chosen)];
}

/**
 * run.command: the one line, or (several) an entry per command, each but the default under the
 * condition that the option variable names it, the default last and unconditioned (the entry that
 * runs when no condition holds).
 */
function runCommandOf(egg: Json, data: Record<string, Json>, renames: ReadonlyMap<string, string>, notes: ImportNote[]): string | Json[] {
  const startups = startupsOf(egg);
  const lines = startups.map(([name, line]): [string, string] => [name, translateStartup(line, renames, startups.length === 1 ? "startup" : `startup_commands.${name}`, notes)]);
  if (lines.length === 1) return lines[0]![1];
  const variable = Object.hasOwn(data, "STARTUP_COMMAND") ? "STARTUP_COMMAND_CHOICE" : "STARTUP_COMMAND";
  data[variable] = {
    display: "Startup command",
    desc: "Which of the egg's startup commands the server runs.",
    type: "option",
    value: lines[0]![0],
    required: true,
    userEdit: true,
    options: lines.map(([name]) => ({ value: name, display: name })),
  };
  notes.push({ rule: "eggStartupChoice", field: "startup_commands", detail: variable });
  const [first, ...others] = lines;
  return [...others.map(([name, command]) => ({ command, if: `${variable} == ${JSON.stringify(name)}` })), { command: first![1] }];
}

/**
 * Pterodactyl gives a server its port as an allocation; Kiln's is the `port` variable
 * (PufferPanel's convention, which SERVER_PORT and {{server.build.default.port}} read: see
 * ./egg-facts), chosen by whoever creates the server. Eggs name no default, so none is guessed.
 */
function addPortVariable(data: Record<string, Json>): void {
  if (Object.hasOwn(data, "port")) return;
  data.port = {
    display: "Port",
    desc: "The port the server listens on (its allocation in Pterodactyl and Pelican).",
    type: "integer",
    value: "",
    required: true,
    userEdit: true,
    rules: { min: 1024, max: 65535 },
  };
}

interface Variables {
  data: Record<string, Json>;
  /** egg name → Kiln name, for those renamed */
  renames: Map<string, string>;
}

function convertVariables(egg: Json, notes: ImportNote[]): Variables {
  const list = Array.isArray(egg.variables) ? egg.variables : egg.variables === undefined || egg.variables === null ? [] : undefined;
  if (!list) throw refuse("variables", "a list of variables");
  if (list.length > MAX_VARIABLES) throw refuse("variables", `at most ${MAX_VARIABLES} variables`);
  const data: Record<string, Json> = {};
  const renames = new Map<string, string>();
  const first = new Map<string, number>();
  list.forEach((v, i) => {
    if (!isObject(v)) throw refuse(`variables.${i}`, "a variable");
    const eggName = text(v.env_variable).trim().toUpperCase();
    if (!/^[A-Z0-9_]{1,64}$/.test(eggName)) throw refuse(`variables.${i}.env_variable`, "a name of letters, digits and _ (at most 64)");
    let name = eggName;
    // Loader variables (LD_LIBRARY_PATH) keep their names: the server's own process gets them (./invocation SERVER_ONLY_NAMES).
    if (RESERVED_NAMES.has(name) || (!isExportedName(name) && !SERVER_ONLY_NAMES.has(name)) || isReservedKey(name)) {
      name = `SERVER_${eggName}`;
      renames.set(eggName, name);
      notes.push({ rule: "eggReservedName", field: `variables.${i}.env_variable`, detail: name });
    }
    // Pelican stores variables by name, so a later one of the same name replaces the earlier.
    if (Object.hasOwn(data, name)) notes.push({ rule: "dropped", field: `variables.${first.get(name)}`, detail: `(${name} again at variables.${i})` });
    first.set(name, i);
    const field = `data.${name}`;
    const value = typeof v.default_value === "boolean" ? String(v.default_value) : text(v.default_value);
    const reading = readLaravelRules(v.rules, value, field, notes);
    const viewable = v.user_viewable === true || v.user_viewable === 1 || v.user_viewable === "1";
    const editable = v.user_editable === true || v.user_editable === 1 || v.user_editable === "1";
    if (viewable && !editable) notes.push({ rule: "eggReadOnly", field });
    const variable: Json = {
      display: text(v.name) || name,
      desc: text(v.description).replace(/\r\n?/g, "\n"),
      type: reading.type,
      value: reading.type === "integer" && /^[+-]?\d+$/.test(value.trim()) && Number.isSafeInteger(Number(value)) ? Number(value) : value,
      required: reading.required,
      userEdit: viewable && editable,
    };
    if (reading.type === "integer" && typeof variable.value === "string" && variable.value.trim() !== "") {
      variable.type = "string";
      notes.push({ rule: "valueType", field: `${field}.type`, detail: "string" });
    }
    if (reading.options) variable.options = reading.options;
    if (reading.rules) variable.rules = reading.rules;
    // A default its own checks refuse (a line break, not one of the options, …): a server could
    // not be made with it, so the administrator is told rather than finding out then. Its pattern
    // is not tried: this runs in the browser too, which has no pattern engine (core/patterns).
    try {
      checkVariableValueButPattern(name, variable as unknown as Variable, variable.value);
    } catch (error) {
      if (!(error instanceof KilnError)) throw error;
      notes.push({ rule: "eggDefault", field: `${field}.value`, detail: error.code });
    }
    data[name] = variable;
  });
  return { data, renames };
}

/** `{{env.X}}` and `{{server.build.env.X}}` placeholders of renamed variables, renamed. */
function placeholderRenamer(renames: ReadonlyMap<string, string>): (value: string) => string {
  if (renames.size === 0) return (value) => value;
  return (value) => value.replace(/\{\{(\s*(?:server\.build\.env|server\.environment|env)\.)([A-Za-z0-9_]+)(\s*)\}\}/g, (whole, prefix: string, name: string, tail: string) => {
    const to = renames.get(name.toUpperCase());
    return to ? `{{${prefix}${to}${tail}}}` : whole;
  });
}

/** The done lines of config.startup, as Pelican hands them to Wings (a text or a list). */
function readyMarkersOf(egg: Json, notes: ImportNote[]): string[] {
  const startup = jsonField(isObject(egg.config) ? egg.config.startup : undefined);
  if (!isObject(startup)) return [];
  const done = startup.done;
  const markers = (Array.isArray(done) ? done : [done]).filter((d): d is string => typeof d === "string" && d !== "");
  for (const key of Object.keys(startup)) {
    const value = startup[key];
    const empty = value === false || value === null || (Array.isArray(value) && value.length === 0) || (isObject(value) && Object.keys(value).length === 0);
    if (key !== "done" && !empty) notes.push({ rule: "dropped", field: `config.startup.${key}`, detail: JSON.stringify(value) });
  }
  return markers;
}

/** What each of an egg's features becomes (Pelican's prompts on console lines). */
function applyFeatures(egg: Json, data: Record<string, Json>, pre: Json[], notes: ImportNote[]): void {
  const features = new Set(Array.isArray(egg.features) ? egg.features.filter((f): f is string => typeof f === "string") : []);
  for (const feature of features) {
    if (feature === "eula") {
      // Kiln's own Minecraft templates ask for the EULA as a variable and write eula.txt before each start.
      const name = Object.hasOwn(data, "EULA") ? "EULA_ACCEPTED" : "EULA";
      data[name] = { display: "Accept the Minecraft EULA", desc: "Set to true to accept the [Minecraft EULA](https://aka.ms/MinecraftEULA). The server does not start without it.", type: "boolean", value: false, required: true, userEdit: true };
      pre.unshift({ type: "writefile", target: "eula.txt", text: `eula=\${${name}}\n` });
      notes.push({ rule: "eggFeatureEula", field: "features.eula", detail: name });
    } else if (feature === "java_version") notes.push({ rule: "eggFeatureJava", field: "features.java_version" });
    else if (feature === "pid_limit") notes.push({ rule: "eggFeaturePidLimit", field: "features.pid_limit" });
    else if (feature === "steam_disk_space") notes.push({ rule: "eggFeatureSteamDisk", field: "features.steam_disk_space" });
    else notes.push({ rule: "dropped", field: `features.${feature}` });
  }
}

function installSteps(egg: Json): Json[] {
  const installation = isObject(egg.scripts) ? jsonField(egg.scripts.installation) : undefined;
  if (!isObject(installation)) return [];
  const script = text(installation.script).replace(/\r\n/g, "\n");
  if (script.trim() === "") return [];
  if (script.length > MAX_SCRIPT) throw refuse("scripts.installation.script", `a script of at most ${MAX_SCRIPT / 1024} KiB`);
  const image = text(installation.container).trim();
  if (image === "") throw refuse("scripts.installation.container", "an image name");
  const entrypoint = text(installation.entrypoint).trim() || "ash";
  return [{ type: "containerscript", image, entrypoint, script }];
}

/** Fields with no meaning for Kiln, noted when they hold something. */
function noteLeftOut(egg: Json, notes: ImportNote[]): void {
  const meta = isObject(egg.meta) ? egg.meta : {};
  if (meta.update_url) notes.push({ rule: "dropped", field: "meta.update_url", detail: text(meta.update_url) });
  const config = isObject(egg.config) ? egg.config : {};
  const logs = jsonField(config.logs);
  if (isObject(logs) && Object.keys(logs).length > 0) notes.push({ rule: "dropped", field: "config.logs", detail: JSON.stringify(logs) });
  if (config.extends) notes.push({ rule: "eggNotMapped", field: "config.extends", detail: text(config.extends) });
  if (config.file_denylist) notes.push({ rule: "dropped", field: "config.file_denylist" });
  if (typeof egg.image === "string" && egg.image.startsWith("data:")) notes.push({ rule: "dropped", field: "image", detail: "icon" });
  if (typeof egg.icon === "string" && egg.icon) notes.push({ rule: "dropped", field: "icon", detail: "icon" });
  const installation = isObject(egg.scripts) ? jsonField(egg.scripts.installation) : undefined;
  if (isObject(installation)) {
    for (const key of Object.keys(installation)) if (!["script", "container", "entrypoint"].includes(key)) notes.push({ rule: "dropped", field: `scripts.installation.${key}` });
  }
}

/** The egg as Kiln template JSON, for templateSchema; throws ErrTemplateFieldInvalid for an egg that cannot run. */
export function convertEgg(value: unknown, notes: ImportNote[]): Json {
  if (!isObject(value) || !eggVersion(value)) throw refuse("meta.version", `an egg version: one of ${EGG_VERSIONS.join(", ")}`);
  const egg = value;
  const images = imagesOf(egg);
  if (images.length === 0) throw refuse("docker_images", "at least one image");
  const { data, renames } = convertVariables(egg, notes);
  addPortVariable(data);
  const config = isObject(egg.config) ? egg.config : {};
  const stop = translateStop(config.stop, notes);
  const markers = readyMarkersOf(egg, notes);
  const pre = configFileSteps(config.files, placeholderRenamer(renames), notes);
  applyFeatures(egg, data, pre, notes);
  const denylist = Array.isArray(egg.file_denylist) ? egg.file_denylist.filter((p): p is string => typeof p === "string" && p.trim() !== "") : [];
  noteLeftOut(egg, notes);
  const environment: Json = { type: "docker", image: images[0]!.image, images, conventions: "egg" };
  const description = text(egg.description).replace(/\r\n?/g, "\n").trim();
  const template: Json = {
    display: text(egg.name).trim() || "Egg",
    type: "egg",
    readme: description,
    source: "egg",
    install: installSteps(egg),
    run: {
      command: runCommandOf(egg, data, renames, notes),
      ...stop,
      ...(markers.length > 0 ? { readyMarkers: markers } : {}),
      pre,
    },
    data,
    environment,
    supportedEnvironments: [{ ...environment }],
  };
  if (denylist.length > 0) template.fileDenylist = denylist;
  const addons = eggAddons(installScriptOf(egg), Object.keys(data));
  if (addons) {
    template.addons = { ...addons };
    notes.push({ rule: "eggPlatform", field: "addons", detail: addons.gameVersion ? `${addons.platform}, ${addons.gameVersion}` : addons.platform });
  }
  return template;
}

/** The egg's install script as text ("" when it has none). */
function installScriptOf(egg: Json): string {
  const installation = isObject(egg.scripts) ? jsonField(egg.scripts.installation) : undefined;
  return isObject(installation) ? text(installation.script) : "";
}

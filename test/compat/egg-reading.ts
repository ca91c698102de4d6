// What Pelican and Wings do with an egg, read straight from the file and written independently
// of core/definition/egg, so the harness (./eggs.test.ts) compares Kiln's stored template with it
// field by field: variables (names, defaults, required, who may edit, in: options, regex), the
// startup line, stop, done markers, config files (parser and replacements), the install script
// and its image, the images offered. A difference is a problem unless the import noted that field.
// Then the server as it would start: the environment the container gets (Wings hands every
// variable to it as NAME=value) and the argument vector its entrypoint makes of STARTUP, compared
// with what Kiln's node gives it (core/definition/egg-runtime), where no note excuses a difference.
import { variableValues, type Template } from "../../core/definition";
import type { ImportNote } from "../../core/definition/import-notes";
import { eggInvocation } from "../../core/definition/egg-runtime";
import { eggFacts } from "../../core/definition/egg-facts";
import { splitCommandLine } from "../../core/definition/command-line";

type Json = Record<string, any>;

const RESERVED = new Set(["P_SERVER_UUID", "P_SERVER_ALLOCATION_LIMIT", "SERVER_MEMORY", "SERVER_IP", "SERVER_PORT", "ENV", "HOME", "USER", "STARTUP", "MODIFIED_STARTUP", "SERVER_UUID", "UUID", "INTERNAL_IP", "HOSTNAME", "TERM", "LANG", "PWD", "TZ", "TIMEZONE"]);
/** Every top-level field an egg may have; the converter must use or note each (or it carries nothing). */
const KNOWN_TOP = new Set(["_comment", "meta", "exported_at", "name", "author", "uuid", "description", "tags", "features", "docker_images", "images", "image", "file_denylist", "startup", "startup_commands", "config", "scripts", "variables", "icon"]);

const parse = (v: unknown) => (typeof v === "string" ? (v.trim() === "" ? undefined : JSON.parse(v)) : v);
const rulesOf = (v: Json): string[] => (Array.isArray(v.rules) ? v.rules : String(v.rules ?? "").split("|")).map((r: unknown) => String(r).trim());

export function eggProblems(egg: Json, stored: Template & Json, notes: ImportNote[]): string[] {
  const problems: string[] = [];
  const noted = (prefix: string) => notes.some((n) => n.field === prefix || n.field.startsWith(`${prefix}.`));
  for (const key of Object.keys(egg)) if (!KNOWN_TOP.has(key)) problems.push(`top-level field ${key} neither used nor noted`);

  // Variables: Pelican upper-cases names and prefixes reserved ones with SERVER_.
  const renames = new Map<string, string>();
  for (const [i, v] of (egg.variables ?? []).entries() as Iterable<[number, Json]>) {
    const eggName = String(v.env_variable).toUpperCase();
    const name = RESERVED.has(eggName) || noted(`variables.${i}.env_variable`) ? `SERVER_${eggName}` : eggName;
    if (name !== eggName) renames.set(eggName, name);
    const k = stored.data[name];
    if (!k) {
      problems.push(`variable ${name} missing`);
      continue;
    }
    const rules = rulesOf(v);
    const defaultText = typeof v.default_value === "boolean" ? String(v.default_value) : String(v.default_value ?? "");
    if (String(k.value) !== defaultText && !noted(`data.${name}`)) problems.push(`variable ${name}: default ${JSON.stringify(k.value)} is not ${JSON.stringify(defaultText)}`);
    if (k.required !== rules.includes("required")) problems.push(`variable ${name}: required ${k.required}`);
    if (k.userEdit !== Boolean(v.user_viewable && v.user_editable)) problems.push(`variable ${name}: userEdit ${k.userEdit}`);
    const inRule = rules.find((r) => r.startsWith("in:"));
    if (inRule && JSON.stringify((k.options ?? []).map((o) => String(o.value))) !== JSON.stringify(inRule.slice(3).split(",").map((s) => s.replace(/^"|"$/g, "")))) {
      problems.push(`variable ${name}: options ${JSON.stringify(k.options)} are not ${inRule}`);
    }
    if (rules.some((r) => r.startsWith("regex:")) && !(k as Json).rules?.pattern && !noted(`data.${name}.rules`)) problems.push(`variable ${name}: regex rule lost`);
    if (rules.some((r) => /^(integer|int)$/.test(r)) && !inRule && k.type !== "integer" && !noted(`data.${name}`)) problems.push(`variable ${name}: not an integer variable`);
    problems.push(...ruleProblems(name, rules, k as Json, noted(`data.${name}.rules`)));
  }

  // Startup: the runtime images turn {{X}} into ${X}.
  const startups = egg.startup !== undefined ? [egg.startup] : Object.values(egg.startup_commands ?? {});
  const startup = String(egg.startup ?? egg.startup_commands?.Default ?? startups[0] ?? "");
  const expected = startup.replace(/\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g, (_w, n: string) => `\${${renames.get(n) ?? n}}`).replace(/\s+/g, " ").trim();
  // Several startup commands (PLCN_v3) become entries: the unconditioned one is the default.
  const run = stored.run.command;
  const command = String(typeof run === "string" ? run : (run.find((e) => !e.if)?.command ?? "")).replace(/\s+/g, " ").trim();
  if (typeof run !== "string" && run.length !== startups.length) problems.push(`startup commands: ${run.length} entries for ${startups.length} commands`);
  if (command !== expected && renames.size === 0) problems.push(`startup ${JSON.stringify(command)} is not ${JSON.stringify(expected)}`);

  // Stop: a command, or ^C as SIGINT (^^C and other signals only with a note).
  const stop = String(egg.config?.stop ?? "");
  if (stop.startsWith("^")) {
    if (stored.run.stopCode === undefined) problems.push(`stop ${stop}: no signal`);
    if (stop.toUpperCase() === "^C" && stored.run.stopCode !== 2) problems.push(`stop ^C: signal ${stored.run.stopCode}`);
    if (stop.toUpperCase() !== "^C" && !noted("config.stop")) problems.push(`stop ${stop} read without a note`);
  } else if (stop.trim() !== "" && stored.run.stop !== stop) problems.push(`stop ${JSON.stringify(stored.run.stop)} is not ${JSON.stringify(stop)}`);

  // Done markers.
  const startupConfig = parse(egg.config?.startup) ?? {};
  const done = (Array.isArray(startupConfig.done) ? startupConfig.done : [startupConfig.done]).filter((d: unknown) => typeof d === "string" && d !== "");
  if (JSON.stringify(stored.run.readyMarkers ?? []) !== JSON.stringify(done)) problems.push(`done markers ${JSON.stringify(stored.run.readyMarkers)} are not ${JSON.stringify(done)}`);

  // Config files: one configfile step per file, Wings' parser, one replacement per find entry.
  const files = parse(egg.config?.files) ?? {};
  const steps = stored.run.pre.filter((s) => s.type === "configfile") as Array<Json>;
  for (const [file, spec] of Object.entries<Json>(Array.isArray(files) ? {} : files)) {
    const step = steps.find((s) => s.file === file.replace(/^\/+/, ""));
    if (!step) {
      problems.push(`config file ${file} missing`);
      continue;
    }
    const parser = String(spec.parser).toLowerCase() === "yml" ? "yaml" : String(spec.parser).toLowerCase();
    if (step.parser !== parser) problems.push(`config file ${file}: parser ${step.parser} is not ${parser}`);
    const count = Object.values<unknown>(spec.find ?? {}).reduce<number>((n, v) => n + (v && typeof v === "object" ? Object.keys(v).length : 1), 0);
    if (step.replace.length !== count && !noted(`config.files.${file}`)) problems.push(`config file ${file}: ${step.replace.length} replacements, not ${count}`);
  }

  // Install script and its image.
  const installation = parse(egg.scripts?.installation) ?? {};
  const script = String(installation.script ?? "").replace(/\r\n/g, "\n");
  const install = stored.install.find((s) => s.type === "containerscript") as Json | undefined;
  if (script.trim() !== "") {
    if (!install) problems.push("install script missing");
    else {
      if (install.image !== String(installation.container).trim()) problems.push(`install image ${install.image} is not ${installation.container}`);
      if (install.script !== script) problems.push("install script changed");
      if (install.entrypoint !== (String(installation.entrypoint ?? "").trim() || "ash")) problems.push(`install entrypoint ${install.entrypoint}`);
    }
  }

  // Images offered, the first chosen.
  const images = egg.docker_images ?? egg.images ?? (egg.image ? [egg.image] : []);
  const wanted = (Array.isArray(images) ? images : Object.values(images)).map(String).filter((i: string) => i.trim() !== "");
  const env = stored.environment as Json;
  if (env.type !== "docker" || env.conventions !== "egg") problems.push(`environment ${env.type}/${env.conventions}`);
  if (JSON.stringify((env.images ?? []).map((i: Json) => i.image)) !== JSON.stringify(wanted.map((i: string) => i.trim()))) problems.push(`images ${JSON.stringify(env.images)} are not ${JSON.stringify(wanted)}`);
  if (env.image !== wanted[0]?.trim()) problems.push(`image ${env.image} chosen, not ${wanted[0]}`);

  // file_denylist.
  const deny = (Array.isArray(egg.file_denylist) ? egg.file_denylist : []).filter((p: unknown) => typeof p === "string" && p.trim() !== "");
  if (JSON.stringify((stored as Json).fileDenylist ?? []) !== JSON.stringify(deny)) problems.push(`fileDenylist ${JSON.stringify((stored as Json).fileDenylist)}`);
  if (stored.source !== "egg") problems.push(`source ${stored.source}`);
  problems.push(...environmentProblems(egg, stored, startup));
  return problems;
}

/**
 * The argument vector the runtime images' entrypoint makes of STARTUP in `env`: {{X}} read as ${X},
 * each ${X} and $X expanded, the line split into words as its shell splits it (the text itself
 * when it is more than words: `;`, `$(…)`, pipes, which both sides then give alike).
 */
function startupArgv(startup: string, env: Record<string, string>): string[] | string {
  const expanded = startup
    .replace(/\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g, "${$1}")
    .replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (whole, braced?: string, bare?: string) => {
      const name = braced ?? bare!;
      return Object.hasOwn(env, name) ? env[name]! : whole;
    });
  try {
    return splitCommandLine(expanded.replace(/\s+/g, " ").trim());
  } catch {
    return expanded.replace(/\s+/g, " ").trim();
  }
}

/**
 * Wings' container environment for the egg's defaults, against the one Kiln's node makes: every
 * variable under its own name with its value (names Pelican itself reserves excepted: it refuses
 * them, and Kiln's import renames them with a note), and the same argument vector from STARTUP.
 */
function environmentProblems(egg: Json, stored: Template & Json, startup: string): string[] {
  const problems: string[] = [];
  /** Every variable's value by its name, as the container's shell expands STARTUP. */
  const given: Record<string, string> = {};
  for (const v of (egg.variables ?? []) as Json[]) given[String(v.env_variable).toUpperCase()] = typeof v.default_value === "boolean" ? String(v.default_value) : String(v.default_value ?? "");
  const wings = Object.fromEntries(Object.entries(given).filter(([name]) => !RESERVED.has(name)));
  const run = stored.run.command;
  const command = String(typeof run === "string" ? run : (run.find((e) => !e.if)?.command ?? ""));
  const values = { ...variableValues(stored), rootDir: "/home/container", serverId: "compat" };
  const { env } = eggInvocation({ ...stored.run, command }, values, eggFacts(values, stored.limits, "compat"));
  for (const [name, value] of Object.entries(wings)) {
    if (env[name] !== value) problems.push(`environment ${name}: Wings ${JSON.stringify(value)}, Kiln ${JSON.stringify(env[name])}`);
  }
  // The facts both sides set after the variables (Wings' SERVER_PORT is the allocation, Kiln's its port variable).
  const facts = { SERVER_MEMORY: env.SERVER_MEMORY!, SERVER_IP: env.SERVER_IP!, SERVER_PORT: env.SERVER_PORT!, P_SERVER_UUID: env.P_SERVER_UUID!, TZ: env.TZ! };
  const expected = startupArgv(startup, { ...given, ...facts });
  const actual = startupArgv(env.STARTUP ?? "", env);
  if (JSON.stringify(expected) !== JSON.stringify(actual)) problems.push(`startup argv: Wings ${JSON.stringify(expected)}, Kiln ${JSON.stringify(actual)}`);
  return problems;
}

/**
 * Each Laravel rule shows in the Kiln variable as what it checks, or the import noted the rules:
 * bounds as min/max (numbers) or minLength/maxLength (texts), boolean and in: as options, the
 * character classes, digits, url, numeric and regex as a pattern. Rules that check nothing
 * (string, nullable, …) and required (compared above) need nothing.
 */
function ruleProblems(name: string, rules: string[], k: Json, noted: boolean): string[] {
  const problems: string[] = [];
  const checks = (k.rules ?? {}) as Json;
  const numeric = rules.some((r) => /^(integer|int|numeric)$/.test(r));
  const option = k.type === "option";
  for (const rule of rules) {
    const kind = rule.split(":")[0]!.toLowerCase();
    let kept: boolean;
    if (["", "required", "string", "nullable", "sometimes", "present", "bail", "filled", "integer", "int", "in"].includes(kind)) continue;
    if (kind === "boolean") kept = option && (k.options ?? []).length > 0;
    else if (["min", "max", "between", "size", "gt", "gte"].includes(kind)) kept = option || (numeric ? checks.min !== undefined || checks.max !== undefined : checks.minLength !== undefined || checks.maxLength !== undefined);
    else if (["numeric", "regex", "alpha", "alpha_num", "alpha_dash", "url", "digits", "digits_between"].includes(kind)) kept = typeof checks.pattern === "string";
    else kept = false;
    if (!kept && !noted) problems.push(`variable ${name}: rule ${rule} neither checked nor noted`);
  }
  return problems;
}

// Steps in the step list editor: catalogues of step types and their fields (a task's
// operations add their own), fresh steps, and the small conversions between a step as
// stored and as its dialog edits it. Every function takes the catalogue the list edits; the
// template's steps are the default, so the definition editor need not name it.
import { CONFIG_PARSERS, JAVA_VERSIONS, STEP_TYPES } from "../../core/definition/constants";
import type { StepType } from "../../core/definition/steps";
import { MAX_SLEEP_SECONDS, MAX_TRIGGER_PATTERN, MAX_WAIT_SECONDS, OPERATION_TYPES, RUN_STATES, type OperationType } from "../../core/tasks/constants";
import { str, type StepValue } from "./convert";

export type StepFieldKind = "text" | "multiline" | "list" | "boolean" | "java" | "number" | "select";
export interface StepField {
  key: string;
  kind: StepFieldKind;
  /** values offered while typing */
  suggestions?: readonly string[];
  /** bounds of a number field; `min` is also where a new one starts */
  min?: number;
  max?: number;
  /** a select's values, each labelled by the message `definition.stepValue.<key>.<value>`; the first is where a new one starts */
  options?: readonly string[];
  /** the label's message when not `definition.stepField.<key>` */
  labelKey?: string;
  /** where a new step's field starts, when not the kind's default */
  initial?: unknown;
  /** the longest text the field takes */
  maxLength?: number;
}

/**
 * The step types a list offers and the fields of each. A type's label is the message
 * `definition.stepType.<type>`, a field's `definition.stepField.<key>`, whatever the catalogue.
 */
export interface StepCatalogue {
  /** in the order the type select offers them */
  types: readonly string[];
  fields: Readonly<Record<string, readonly StepField[]>>;
  /** the type a new step starts as */
  defaultType: string;
}

const text = (key: string, suggestions?: readonly string[]): StepField => ({ key, kind: "text", suggestions });

/** The fields of each step type. */
export const STEP_FIELDS: Record<StepType, readonly StepField[]> = {
  download: [{ key: "files", kind: "list" }],
  command: [{ key: "commands", kind: "list" }],
  alterfile: [text("file"), { key: "regex", kind: "boolean" }, text("search"), text("replace")],
  writefile: [text("target"), { key: "text", kind: "multiline" }],
  move: [text("source"), text("target")],
  mkdir: [text("target")],
  mojangdl: [text("version"), text("target")],
  forgedl: [text("version"), text("minecraftVersion"), text("filename"), text("target"), text("outputVariable")],
  // The release types the node's spongeforgedl step accepts (daemon/processors/forge.ts).
  spongeforgedl: [text("releaseType", ["recommended", "latest"])],
  fabricdl: [text("targetFile")],
  javadl: [{ key: "version", kind: "java" }],
  steamgamedl: [text("appId"), text("username"), text("password"), { key: "extraArgs", kind: "list" }],
  // PufferPanel v3's steps.
  extract: [text("source"), text("destination")],
  archive: [{ key: "source", kind: "list" }, text("destination")],
  sleep: [text("duration")],
  console: [text("message")],
  resolveforgeversion: [text("version"), text("minecraftVersion"), text("outputVariable")],
  resolveneoforgeversion: [text("version"), text("minecraftVersion"), text("outputVariable")],
  neoforgedl: [text("version"), text("minecraftVersion"), text("target"), text("outputVariable")],
  spongedl: [text("spongeType", ["spongevanilla", "spongeforge"]), { key: "recommended", kind: "boolean" }, text("spongeVersion"), text("minecraftVersion")],
  curseforge: [text("projectId"), text("fileId"), text("java")],
  dockerpull: [text("imageName")],
  // What eggs need. A configfile's `replace` list is kept as written (the JSON view edits it).
  configfile: [text("file"), text("parser", CONFIG_PARSERS)],
  containerscript: [text("image"), text("entrypoint", ["ash", "bash", "sh"]), { key: "script", kind: "multiline" }],
};

export const DEFAULT_STEP_TYPE: StepType = "command";

/** A template's install, pre and post steps. */
export const TEMPLATE_STEPS: StepCatalogue = { types: STEP_TYPES, fields: STEP_FIELDS, defaultType: DEFAULT_STEP_TYPE };

/** A task's operations: the task-only types, offered first, then every step type. */
export const TASK_OPERATIONS: StepCatalogue = {
  types: OPERATION_TYPES,
  // The template steps first: a task's own console and sleep replace theirs.
  fields: {
    ...STEP_FIELDS,
    console: [text("command")],
    start: [],
    stop: [],
    restart: [],
    kill: [],
    sleep: [{ key: "seconds", kind: "number", min: 1, max: MAX_SLEEP_SECONDS }],
    backup: [],
    // Plain text unless told: what a user types ("Done (") is found as written.
    waitForConsole: [
      { key: "pattern", kind: "text", maxLength: MAX_TRIGGER_PATTERN },
      { key: "regex", kind: "boolean", labelKey: "definition.stepField.patternRegex", initial: false },
      { key: "timeoutSeconds", kind: "number", min: 1, max: MAX_WAIT_SECONDS, initial: 60 },
    ],
    ifState: [{ key: "state", kind: "select", options: RUN_STATES }],
    // The endpoint's number, as the Webhooks page shows it in its address (/webhooks/{id}).
    webhook: [{ key: "webhook", kind: "number", min: 1, max: 1_000_000_000 }, text("text")],
  } satisfies Record<OperationType, readonly StepField[]>,
  // A console command: what a task most often does, and (unlike a command step, which runs on the
  // node and is for admins only) what any user who may type in the console may add.
  defaultType: "console",
};

export function isKnownType(type: string, catalogue: StepCatalogue = TEMPLATE_STEPS): boolean {
  return Object.hasOwn(catalogue.fields, type);
}

export function stepFields(type: string, catalogue: StepCatalogue = TEMPLATE_STEPS): readonly StepField[] {
  return isKnownType(type, catalogue) ? catalogue.fields[type]! : [];
}

function defaultFor(field: StepField): unknown {
  if (field.initial !== undefined) return field.initial;
  switch (field.kind) {
    case "list":
      return [];
    case "boolean":
      return true;
    case "java":
      return JAVA_VERSIONS[JAVA_VERSIONS.length - 1];
    case "number":
      return field.min ?? 0;
    case "select":
      return field.options?.[0] ?? "";
    default:
      return "";
  }
}

/** A fresh step of a type (the catalogue's default type unless told), every field at its default. */
export function newStep(type?: string, catalogue: StepCatalogue = TEMPLATE_STEPS): StepValue {
  const step: StepValue = { type: type ?? catalogue.defaultType };
  for (const field of stepFields(step.type, catalogue)) step[field.key] = defaultFor(field);
  return step;
}

/** Reads a list field; a single string is a one-entry list. */
export function listValue(value: unknown): string[] {
  if (typeof value === "string") return [value];
  return Array.isArray(value) ? value.map(str) : [];
}

/** Reads a number field; a numeric string (hand-written JSON) counts, anything else is blank (""). */
export function numberValue(value: unknown): number | "" {
  const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof number === "number" && Number.isFinite(number) ? number : "";
}

/** A step as the sub-form edits it: list fields as lists, missing fields at their defaults. */
export function stepForEditing(step: StepValue, catalogue: StepCatalogue = TEMPLATE_STEPS): StepValue {
  const copy: StepValue = { ...step };
  for (const field of stepFields(step.type, catalogue)) {
    if (field.kind === "list") copy[field.key] = listValue(step[field.key]);
    else if (copy[field.key] === undefined) copy[field.key] = defaultFor(field);
  }
  return copy;
}

/** A step as saved from the sub-form: blank list entries are dropped, numbers are numbers. */
export function stepForSaving(step: StepValue, catalogue: StepCatalogue = TEMPLATE_STEPS): StepValue {
  const copy: StepValue = { ...step };
  for (const field of stepFields(step.type, catalogue)) {
    if (field.kind === "list") copy[field.key] = listValue(step[field.key]).filter((entry) => entry.trim() !== "");
    if (field.kind === "number") copy[field.key] = numberValue(step[field.key]);
  }
  return copy;
}

/**
 * A short line that tells steps of one type apart in the list (the first command, the target…).
 * A select's value is said by `choice` (its label), when given.
 */
export function stepSummary(step: StepValue, catalogue: StepCatalogue = TEMPLATE_STEPS, choice?: (key: string, value: string) => string): string {
  const [first] = stepFields(step.type, catalogue);
  if (!first) return "";
  const value = step[first.key];
  if (first.kind === "select" && choice && first.options?.includes(str(value))) return choice(first.key, str(value));
  if (first.kind === "list") {
    const list = listValue(value);
    return list.length > 1 ? `${list[0]} (+${list.length - 1})` : (list[0] ?? "");
  }
  return first.kind === "boolean" ? "" : str(value);
}

// Steps in the definition editor: the fields of each step type (spec: Step types), fresh steps,
// and the small conversions between a step as stored and as its dialog edits it.
import { JAVA_VERSIONS } from "../../core/definition/constants";
import type { StepType } from "../../core/definition/steps";
import { str, type StepValue } from "./convert";

export type StepFieldKind = "text" | "multiline" | "list" | "boolean" | "java";
export interface StepField {
  key: string;
  kind: StepFieldKind;
  /** values offered while typing */
  suggestions?: readonly string[];
}

const text = (key: string, suggestions?: readonly string[]): StepField => ({ key, kind: "text", suggestions });

/** The fields of each step type (spec: Step types). */
export const STEP_FIELDS: Record<StepType, readonly StepField[]> = {
  download: [{ key: "files", kind: "list" }],
  command: [{ key: "commands", kind: "list" }],
  alterfile: [text("file"), { key: "regex", kind: "boolean" }, text("search"), text("replace")],
  writefile: [text("target"), { key: "text", kind: "multiline" }],
  move: [text("source"), text("target")],
  mkdir: [text("target")],
  mojangdl: [text("version"), text("target")],
  forgedl: [text("version"), text("filename")],
  // The release types the node's spongeforgedl step accepts (daemon/processors/forge.ts).
  spongeforgedl: [text("releaseType", ["recommended", "latest"])],
  fabricdl: [text("targetFile")],
  javadl: [{ key: "version", kind: "java" }],
  steamgamedl: [text("appId")],
};

export const DEFAULT_STEP_TYPE: StepType = "command";

function isStepType(type: string): type is StepType {
  return Object.hasOwn(STEP_FIELDS, type);
}

export function stepFields(type: string): readonly StepField[] {
  return isStepType(type) ? STEP_FIELDS[type] : [];
}

function defaultFor(field: StepField): unknown {
  switch (field.kind) {
    case "list":
      return [];
    case "boolean":
      return true;
    case "java":
      return JAVA_VERSIONS[JAVA_VERSIONS.length - 1];
    default:
      return "";
  }
}

/** A fresh step of a type, every field at its default. */
export function newStep(type: string = DEFAULT_STEP_TYPE): StepValue {
  const step: StepValue = { type };
  for (const field of stepFields(type)) step[field.key] = defaultFor(field);
  return step;
}

/** Reads a list field; a single string is a one-entry list (spec: Step types). */
export function listValue(value: unknown): string[] {
  if (typeof value === "string") return [value];
  return Array.isArray(value) ? value.map(str) : [];
}

/** A step as the sub-form edits it: list fields as lists, missing fields at their defaults. */
export function stepForEditing(step: StepValue): StepValue {
  const copy: StepValue = { ...step };
  for (const field of stepFields(step.type)) {
    if (field.kind === "list") copy[field.key] = listValue(step[field.key]);
    else if (copy[field.key] === undefined) copy[field.key] = defaultFor(field);
  }
  return copy;
}

/** A step as saved from the sub-form: blank list entries are dropped. */
export function stepForSaving(step: StepValue): StepValue {
  const copy: StepValue = { ...step };
  for (const field of stepFields(step.type)) {
    if (field.kind === "list") copy[field.key] = listValue(step[field.key]).filter((entry) => entry.trim() !== "");
  }
  return copy;
}

/** A short line that tells steps of one type apart in the list (the first command, the target…). */
export function stepSummary(step: StepValue): string {
  const [first] = stepFields(step.type);
  if (!first) return "";
  const value = step[first.key];
  if (first.kind === "list") {
    const list = listValue(value);
    return list.length > 1 ? `${list[0]} (+${list.length - 1})` : (list[0] ?? "");
  }
  return first.kind === "boolean" ? "" : str(value);
}

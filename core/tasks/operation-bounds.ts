// What a task's operations may hold beyond their schema's types, checked by parseTask on the panel
// and on the node alike: only the fields their type has (a field Kiln does not know is refused
// and named, neither kept in the node's task file nor dropped unsaid), texts and lists of bounded
// size (./constants), and a condition CEL can read at a bounded cost (core/definition/conditions).
import { KilnError } from "../errors";
import { conditionProblem } from "../definition/conditions";
import { MAX_STEP_CONTENT, MAX_STEP_LIST, MAX_STEP_TEXT, STEP_CONTENT_FIELDS } from "./constants";

/**
 * Throws ErrUnknownField naming the first field of an operation in `raw` (a task as the request
 * gave it) that `fieldsOf` does not list for its type. Operations of no known type are the
 * schema's to refuse.
 */
export function assertKnownFields(raw: unknown, fieldsOf: (type: string) => readonly string[] | undefined): void {
  const operations = raw && typeof raw === "object" ? (raw as { operations?: unknown }).operations : undefined;
  if (!Array.isArray(operations)) return;
  operations.forEach((operation, i) => {
    if (!operation || typeof operation !== "object") return;
    const type = String((operation as { type?: unknown }).type);
    const accepted = fieldsOf(type);
    const unknown = accepted && Object.keys(operation).find((key) => !accepted.includes(key));
    if (accepted && unknown !== undefined) throw new KilnError("ErrUnknownField", { field: `operations.${i}.${unknown}`, accepted: accepted.join(", ") }, `invalid task: operations.${i}.${unknown} is not a field of a ${type} step`);
  });
}

/**
 * Throws ErrFieldTooLarge naming the first text of an operation longer than its bound (a file's
 * content MAX_STEP_CONTENT, any other MAX_STEP_TEXT) or list longer than MAX_STEP_LIST, and
 * ErrTemplateFieldInvalid for an `if` CEL cannot read or that could cost too much to evaluate.
 */
export function assertOperationBounds(operations: readonly object[]): void {
  operations.forEach((operation, i) => {
    const content = STEP_CONTENT_FIELDS[(operation as { type: string }).type];
    for (const [key, value] of Object.entries(operation)) assertBounded(value, `operations.${i}.${key}`, key === content ? MAX_STEP_CONTENT : MAX_STEP_TEXT);
    const condition = (operation as { if?: unknown }).if;
    const problem = typeof condition === "string" ? conditionProblem(condition) : undefined;
    if (problem) {
      const expected = `a condition such as env == 'host' (${problem})`;
      throw new KilnError("ErrTemplateFieldInvalid", { field: `operations.${i}.if`, expected }, `invalid task: operations.${i}.if: ${expected}`);
    }
  });
}

function assertBounded(value: unknown, field: string, maxText: number): void {
  if (typeof value === "string") {
    if (value.length > maxText) throw tooLarge(field, maxText);
  } else if (Array.isArray(value)) {
    if (value.length > MAX_STEP_LIST) throw tooLarge(field, MAX_STEP_LIST);
    value.forEach((entry, j) => assertBounded(entry, `${field}.${j}`, maxText));
  } else if (value && typeof value === "object") {
    for (const [key, entry] of Object.entries(value)) assertBounded(entry, `${field}.${key}`, maxText);
  }
}

function tooLarge(field: string, max: number): KilnError {
  return new KilnError("ErrFieldTooLarge", { field, max }, `invalid task: ${field}: at most ${max}`);
}

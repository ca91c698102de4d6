// A property's value in the activity table. A value Kiln wrote from a fixed set
// (core/activity/property-values) is said in the reader's language: a login's method, a file
// change's door, a yes or no, a refusal's catalogue code as its sentence (errors.<Code>), with a
// prefix such as "sftp:" as a short mention. Anything else — what people typed or named, a value
// outside its set (a row older than the set), an unknown code, or a code whose sentence needs
// details the row does not keep — is shown as recorded, by the rule of untrusted labels.
import { propertyValueRule, VALUE_SETS, type ValueRule } from "../../core/activity/property-values";
import { ERROR_CODES } from "../../core/errors";
import { errorMessageKey } from "../../core/errors/message-key";
import type { Translate } from "../../core/i18n/translate";

export interface ShownValue {
  /** A prefix's mention in the reader's language ("SFTP", "Task"), before the rest. */
  mention?: string;
  /** What is shown after the mention. */
  text: string;
  /** `text` is Kiln's own words; false: it is what was recorded, shown as an untrusted label. */
  translated: boolean;
}

const KNOWN_CODES: ReadonlySet<string> = new Set(ERROR_CODES);
/** A placeholder left in a sentence: its details were not recorded. */
const HOLE = /\{\w+\}/;

export function activityPropertyValue(t: Translate, event: string, name: string, value: unknown): ShownValue {
  if (typeof value === "boolean") return { text: t(VALUE_SETS.yesNo.message(String(value))), translated: true };
  const recorded = { text: Array.isArray(value) ? value.join(", ") : String(value), translated: false };
  const rule = propertyValueRule(event, name);
  if (!rule || typeof value !== "string") return recorded;
  const prefix = Object.keys(rule.prefixes ?? {}).find((p) => value.startsWith(p));
  const rest = prefix === undefined ? value : value.slice(prefix.length);
  const said = sayRest(t, rule, rest);
  // A rule that says its values but does not know this one: an old row, shown whole as it was.
  if (said === null) return recorded;
  return prefix === undefined ? said : { mention: t(rule.prefixes![prefix]!), ...said };
}

function sayRest(t: Translate, rule: ValueRule, rest: string): Omit<ShownValue, "mention"> | null {
  if (rule.set) {
    const set = VALUE_SETS[rule.set];
    return (set.values as readonly string[]).includes(rest) ? { text: t(set.message(rest)), translated: true } : null;
  }
  if (rule.errorCode) {
    if (!KNOWN_CODES.has(rest)) return null;
    const sentence = t(errorMessageKey(rest));
    return HOLE.test(sentence) ? null : { text: sentence, translated: true };
  }
  // Only a prefix is Kiln's (a backup's "task:"): the rest is a name, as recorded.
  return { text: rest, translated: false };
}

// One replacement of a configfile step with its placeholders resolved (./placeholders).
export interface Replacement {
  /** Where: a key, a dotted path, or a line's start, as the parser reads it. */
  match: string;
  value: string;
  /** Only replace a value that is this now; "regex:…" a value the expression matches (value may use $1). */
  ifValue?: string;
  /** XML only: the template wrote the value as [name='…'], which sets that attribute. */
  attribute?: string;
}

/** A file that cannot be read as its parser expects: the step leaves it as it is and says why. */
export class ConfigFormatError extends Error {}

export const REGEX_PREFIX = "regex:";

// ${name} substitution of server variables into step fields, paths and environment values.
// Command lines are split before anything is substituted (commandArgv in ./command-line).
// An unknown name is left as written so a literal "${…}" in a script survives.

export type Values = Record<string, string | number | boolean>;

/** Names the node fills in beside the template's variables (the server's folder, its id): never a user's value. */
export const BUILTIN_VALUES = ["rootDir", "serverId"] as const;

/** `as` turns a value into the text written in its place (escaping it for the field), or throws. */
export function substitute(text: string, values: Values, as: (value: string, name: string) => string = (value) => value): string {
  return text.replace(/\$\{([A-Za-z0-9_.-]+)\}/g, (whole, name: string) =>
    Object.hasOwn(values, name) ? as(String(values[name]), name) : whole,
  );
}

/** Substitutes every string inside a plain JSON value (a step, an env map). */
export function substituteDeep<T>(value: T, values: Values): T {
  if (typeof value === "string") return substitute(value, values) as T;
  if (Array.isArray(value)) return value.map((v) => substituteDeep(v, values)) as T;
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substituteDeep(v, values)])) as T;
  }
  return value;
}

/** The names of the `${name}` references in `text`. */
export function referencedNames(text: string): string[] {
  return [...text.matchAll(/\$\{([A-Za-z0-9_.-]+)\}/g)].map((m) => m[1]!);
}

/** The names of the `${name}` references in every string inside a plain JSON value: all that substituteDeep would replace. */
export function referencedNamesDeep(value: unknown): string[] {
  if (typeof value === "string") return referencedNames(value);
  if (Array.isArray(value)) return value.flatMap(referencedNamesDeep);
  if (value && typeof value === "object") return Object.values(value).flatMap(referencedNamesDeep);
  return [];
}

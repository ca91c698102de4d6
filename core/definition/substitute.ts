// ${name} substitution of server variables into commands, step fields and environment variables.
// An unknown name is left as written so a literal "${…}" in a script survives.

export type Values = Record<string, string | number | boolean>;

export function substitute(text: string, values: Values): string {
  return text.replace(/\$\{([A-Za-z0-9_.-]+)\}/g, (whole, name: string) =>
    Object.hasOwn(values, name) ? String(values[name]) : whole,
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

// Names that a plain object already answers through its prototype (`__proto__`, `constructor`,
// `toString`, …). As a variable name or a map key they would read or write Object.prototype
// instead of data, so the definition format refuses them: the schema's records
// refuse them as keys (zod itself drops a "__proto__" key unseen, so the routes that take a
// template or a definition also look at the JSON as sent, with assertNoReservedKeys).
import { z } from "../zod";
import { KilnError } from "../errors";

export function isReservedKey(key: string): boolean {
  return key in Object.prototype || key === "prototype";
}

/** A map key for the definition's records: any name but a reserved one. */
export const safeKey = z.string().check(z.refine((key) => !isReservedKey(key), { message: "this name is reserved" }));

/** Throws ErrInvalidJson naming the first reserved key anywhere in parsed JSON ("data.__proto__"). */
export function assertNoReservedKeys(value: unknown, path = ""): void {
  if (!value || typeof value !== "object") return;
  for (const key of Object.keys(value)) {
    const here = path ? `${path}.${key}` : key;
    if (isReservedKey(key)) throw new KilnError("ErrInvalidJson", { field: here }, `${here}: this name is reserved`);
    assertNoReservedKeys((value as Record<string, unknown>)[key], here);
  }
}

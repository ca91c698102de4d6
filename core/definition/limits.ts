// A server's resource limits (the fields are described in ./limit-values): Kiln's own field of the server definition, beside
// PufferPanel's shape, set by an administrator only (at creation and on the admin card). Every
// field is optional; 0 or absent means no limit, as in Pterodactyl, so a definition written
// before limits existed runs as it did.
import { z } from "../zod";
import { KilnError } from "../errors";
import { LIMIT_FIELDS, type ResourceLimits } from "./limit-values";

export { LIMIT_FIELDS, limitOf, limitBytes, type ResourceLimits, type LimitField } from "./limit-values";

const MAX_AMOUNT = 2 ** 31 - 1;
const amount = z.number().check(z.int(), z.gte(0), z.lte(MAX_AMOUNT));

export const limitsSchema = z.object({
  memoryMiB: z.optional(amount),
  cpuPercent: z.optional(amount),
  processes: z.optional(amount),
  diskMiB: z.optional(amount),
}) satisfies z.ZodMiniType<ResourceLimits>;

/**
 * The limits from a form's fields (memoryMiB, cpuPercent, processes, diskMiB): an empty field is
 * no limit; anything but digits is ErrFieldNotInteger. Undefined when the form has none of them,
 * so a form without the fields (a non-administrator's) sends no limits at all.
 */
export function limitsFromForm(form: Record<string, unknown>): ResourceLimits | undefined {
  if (!LIMIT_FIELDS.some((field) => typeof form[field] === "string")) return undefined;
  const limits: ResourceLimits = {};
  for (const field of LIMIT_FIELDS) {
    const text = typeof form[field] === "string" ? (form[field] as string).trim() : "";
    if (text === "") continue;
    if (!/^\d{1,10}$/.test(text)) throw new KilnError("ErrFieldNotInteger", { field });
    const value = Number(text);
    if (value > MAX_AMOUNT) throw new KilnError("ErrFieldNotBetween", { field, min: 0, max: MAX_AMOUNT });
    if (value > 0) limits[field] = value;
  }
  return limits;
}

// zod validation at the edge: a failed rule answers with an ErrField* code naming the field.
import { zValidator } from "@hono/zod-validator";
import type { z } from "../core/zod";
import { fieldError } from "../core/validation/parse";

export { parseWith } from "../core/validation/parse";

export function validateJson<T extends z.core.$ZodType>(schema: T) {
  return zValidator("json", schema, (result) => {
    if (!result.success) throw fieldError(result.error.issues[0]!);
  });
}

// A template or definition the schema refused, as the catalogue error the API answers: the field
// (a path such as "install.2.version") and what would be accepted there, from the schema's own
// message ("expected a Java version (8, 11, 16, 17, 21, 25) or a ${variable}").
import type { z } from "../zod";
import { KilnError } from "../errors";

export function templateFieldError(error: z.core.$ZodError, what = "template"): KilnError {
  const issue = error.issues[0];
  const field = issue?.path.join(".") || "(the whole template)";
  const expected = issue?.message ?? "a valid value";
  return new KilnError("ErrTemplateFieldInvalid", { field, expected }, `invalid ${what}: ${field}: ${expected}`);
}

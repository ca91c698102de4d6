// zod validation at the edge, for the panel and the node alike: a failed rule becomes an ErrField*
// catalogue error naming the field.
import { z } from "../zod";
import { KilnError, type ErrorCode } from "../errors";

export function fieldError(issue: z.core.$ZodIssue): KilnError {
  const field = issue.path.join(".") || "body";
  switch (issue.code) {
    case "too_small":
      return issue.origin === "string"
        ? new KilnError(Number(issue.minimum) <= 1 ? "ErrFieldRequired" : "ErrFieldLength", { field, length: Number(issue.minimum) })
        : new KilnError("ErrFieldTooSmall", { field, min: Number(issue.minimum) });
    case "too_big":
      return new KilnError("ErrFieldTooLarge", { field, max: Number(issue.maximum) });
    case "invalid_format":
      return issue.format === "email" ? new KilnError("ErrFieldNotEmail", { field }) : new KilnError("ErrFieldMustBePrintable", { field });
    case "invalid_type":
      return new KilnError("ErrFieldRequired", { field });
    case "custom": {
      // Rules written with core/api's `kilnRule` carry their catalogue code.
      const code = (issue.params as { kiln?: ErrorCode } | undefined)?.kiln;
      return new KilnError(code ?? "ErrFieldRequired", { field });
    }
    default:
      return new KilnError("ErrFieldRequired", { field });
  }
}

/** Validates an already-read body (JSON or form) against a schema (core/api/schemas, core/mods/change, …). */
export function parseWith<T extends z.core.$ZodType>(schema: T, body: unknown): z.infer<T> {
  const result = z.safeParse(schema, body);
  if (!result.success) throw fieldError(result.error.issues[0]!);
  return result.data;
}

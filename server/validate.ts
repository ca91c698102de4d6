// zod validation at the edge: a failed rule answers with an ErrField* code naming the field.
import { zValidator } from "@hono/zod-validator";
import { z } from "../core/zod";
import { KilnError, type ErrorCode } from "../core/errors";

function fieldError(issue: z.core.$ZodIssue): KilnError {
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

export function validateJson<T extends z.core.$ZodType>(schema: T) {
  return zValidator("json", schema, (result) => {
    if (!result.success) throw fieldError(result.error.issues[0]!);
  });
}

/** Validates an already-read body (JSON or form) against a schema from core/api/schemas. */
export function parseWith<T extends z.core.$ZodType>(schema: T, body: unknown): z.infer<T> {
  const result = z.safeParse(schema, body);
  if (!result.success) throw fieldError(result.error.issues[0]!);
  return result.data;
}

// Reads a JSON request body, answering ErrInvalidJson for anything that is not JSON.
import type { Context } from "hono";
import { KilnError } from "../../core/errors";

export async function readJson(c: Context): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    throw new KilnError("ErrInvalidJson");
  }
}

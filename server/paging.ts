// Paging parameters (spec section 7: page and limit, default 10).
import type { Context } from "hono";
import { KilnError } from "../core/errors";

export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;

export function paging(c: Context): { page: number; limit: number } {
  const page = Number(c.req.query("page") ?? 1);
  const limit = Number(c.req.query("limit") ?? DEFAULT_PAGE_SIZE);
  if (!Number.isInteger(page) || page < 1) throw new KilnError("ErrFieldTooSmall", { field: "page", min: 1 });
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) throw new KilnError("ErrFieldNotBetween", { field: "limit", min: 1, max: MAX_PAGE_SIZE });
  return { page, limit };
}

// Paging parameters: page and limit, default 10.
import type { Context } from "hono";
import { KilnError } from "../core/errors";

export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;
/**
 * No list comes near this many pages; the cap keeps the row offset ((page - 1) × limit) a whole
 * number SQLite and JavaScript both hold exactly, so a huge page is a 400, not a database error.
 */
export const MAX_PAGE = 1_000_000_000;

export function paging(c: Context): { page: number; limit: number } {
  const page = wholeNumber(c.req.query("page"), 1);
  const limit = wholeNumber(c.req.query("limit"), DEFAULT_PAGE_SIZE);
  if (page === null || page < 1 || page > MAX_PAGE) throw new KilnError("ErrFieldNotBetween", { field: "page", min: 1, max: MAX_PAGE });
  if (limit === null || limit < 1 || limit > MAX_PAGE_SIZE) throw new KilnError("ErrFieldNotBetween", { field: "limit", min: 1, max: MAX_PAGE_SIZE });
  return { page, limit };
}

/**
 * The `paging` object of a listed page: Kiln's `size`, and PufferPanel's names for the same
 * (`pageSize`) and for the largest size a caller may ask for (`maxSize`), which its clients read.
 */
export function pagingAnswer(page: number, limit: number, total: number) {
  return { page, size: limit, pageSize: limit, maxSize: MAX_PAGE_SIZE, total };
}

/** Digits only (an optional minus): "1e3", "0x10", " 5" and "" are not page numbers. */
function wholeNumber(raw: string | undefined, absent: number): number | null {
  if (raw === undefined) return absent;
  if (!/^-?\d{1,16}$/.test(raw)) return null;
  return Number(raw);
}

/** The page a screen shows: lenient, since a person edited the address: anything unreadable is the first page, anything past the cap the last one allowed. */
export function screenPage(c: Context): number {
  const page = wholeNumber(c.req.query("page"), 1);
  return page === null ? 1 : Math.min(MAX_PAGE, Math.max(1, page));
}

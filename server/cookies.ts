// Cookie names and options, declared once.
import type { Context } from "hono";
import { setCookie, deleteCookie } from "hono/cookie";

export const COOKIES = {
  /** a cookie named after the product */
  session: "kiln",
  /**
   * PufferPanel's browser client keeps the session it was given in a cookie of its own name and
   * authenticates its socket with it; read beside ours, never set by Kiln.
   */
  pufferPanelSession: "puffer_auth",
  locale: "kiln_locale",
  dark: "kiln_dark",
  theme: "kiln_theme",
  drawer: "kiln_drawer",
  flash: "kiln_flash",
} as const;

const YEAR = 365 * 24 * 3600;

export function isHttps(c: Context, trustProxy: boolean): boolean {
  if (new URL(c.req.url).protocol === "https:") return true;
  return trustProxy && c.req.header("x-forwarded-proto")?.split(",")[0]?.trim() === "https";
}

/** A long-lived preference the browser may also read (not HttpOnly). */
export function setPreferenceCookie(c: Context, name: string, value: string, secure: boolean): void {
  setCookie(c, name, value, { path: "/", maxAge: YEAR, sameSite: "Strict", secure });
}

export function setSessionCookie(c: Context, token: string, maxAgeSeconds: number, secure: boolean): void {
  setCookie(c, COOKIES.session, token, { path: "/", httpOnly: true, sameSite: "Strict", secure, maxAge: maxAgeSeconds });
}

export function clearSessionCookie(c: Context): void {
  deleteCookie(c, COOKIES.session, { path: "/" });
}

/** A message key to toast on the next page, e.g. after a redirect. */
export function setFlash(c: Context, key: string, secure: boolean): void {
  setCookie(c, COOKIES.flash, key, { path: "/", httpOnly: true, sameSite: "Strict", secure, maxAge: 60 });
}

// Renders a page component inside the page context to a streamed HTML response.
import type { ReactElement } from "react";
import type { Context } from "hono";
import { getCookie, deleteCookie } from "hono/cookie";
import { renderToString } from "react-dom/server";
import { PageContext, type PageContextValue } from "../views/context";
import type { KilnEnv } from "./context";
import type { Deps } from "./deps";
import { COOKIES } from "./cookies";
import { getUserSetting } from "./services/users";
import { getSetting, SETTING_KEYS, storedSettings } from "./services/settings";
import { hasAnyServer } from "./services/servers";
import { emailState, type EmailState } from "./services/users/email-confirmation";
import { SCOPES, hasScope } from "../core/scopes";

export async function brandName(deps: Deps): Promise<string> {
  return brandNameIn(deps, await storedSettings(deps.db));
}

/** The panel's name: the configuration's, else the stored company name, else Kiln. */
export function brandNameIn(deps: Deps, settings: ReadonlyMap<string, string>): string {
  return deps.config.branding.name || settings.get(SETTING_KEYS.companyName) || "Kiln";
}

/** Dark: the user's setting when logged in, else the cookie that mirrors local storage. */
async function darkPreference(c: Context<KilnEnv>, deps: Deps): Promise<boolean | undefined> {
  const user = c.get("user") ?? null;
  const raw = user ? await getUserSetting(deps.db, user.id, "dark") : getCookie(c, COOKIES.dark);
  if (raw === "true" || raw === "1") return true;
  if (raw === "false" || raw === "0") return false;
  return undefined;
}

/** The address a no-access note names while it is unconfirmed (the one waiting in place of a placeholder); null once confirmed. */
const unconfirmedName = (state: EmailState): string | null => (state.confirmed ? null : state.own || (state.pending ?? ""));

export async function pageContext(c: Context<KilnEnv>, deps: Deps): Promise<PageContextValue> {
  const user = c.get("user") ?? null;
  const preferred = user ? await getUserSetting(deps.db, user.id, "preferredTheme") : getCookie(c, COOKIES.theme);
  const flashKey = getCookie(c, COOKIES.flash);
  if (flashKey) deleteCookie(c, COOKIES.flash, { path: "/" });
  const url = new URL(c.req.url);
  // Only asked when the scope does not already show Servers: one indexed lookup, not on every page.
  const sharedServers = user !== null && !hasScope(user.scopes, SCOPES.serversView) && await hasAnyServer(deps.db, user.id);
  return {
    t: c.get("t"),
    locale: c.get("locale"),
    brand: await brandName(deps),
    user,
    path: url.pathname,
    backPath: c.req.method === "GET" ? url.pathname + url.search : url.pathname,
    assets: deps.assets,
    theme: deps.themes.pick(preferred, await getSetting(deps.db, SETTING_KEYS.defaultTheme)),
    themes: deps.themes.list().map((t) => ({ name: t.name, display: t.display })),
    dark: await darkPreference(c, deps),
    drawerCollapsed: getCookie(c, COOKIES.drawer) === "mini",
    sharedServers,
    // Asked only of someone who holds nothing (whom the no-access notes are for).
    unconfirmedEmail: user !== null && !user.clientId && user.scopes.length === 0 && !sharedServers ? unconfirmedName(await emailState(deps.db, user.id)) : null,
    translationUrl: deps.config.translationUrl,
    islands: [],
    islandMessages: new Set(),
    // Only keys of our own catalogue are toasted, whatever the cookie says.
    flash: flashKey && /^[a-zA-Z.]+$/.test(flashKey) && c.get("t")(flashKey) !== flashKey ? { key: flashKey, error: flashKey.startsWith("errors.") } : undefined,
  };
}

/** A page inside the request's page context: what render() turns into HTML. */
export async function pageDocument(c: Context<KilnEnv>, deps: Deps, page: ReactElement): Promise<ReactElement> {
  return <PageContext.Provider value={await pageContext(c, deps)}>{page}</PageContext.Provider>;
}

/**
 * A page's HTML in one string. renderToString rather than a stream: a page is 10–60 kB that no
 * part of waits on anything (nothing suspends), so streaming only added the cost of its chunks
 * (a login page 1,500 → 2,000 a second at one CPU). React's stream writes the doctype itself when
 * the root is <html> (a whole page, not a fragment a page fetches); this adds it the same way, and
 * test/page-equality.test.tsx holds the two byte for byte.
 */
export function pageHtml(document: ReactElement): string {
  const html = renderToString(document);
  return html.startsWith("<html") ? `<!DOCTYPE html>${html}` : html;
}

export async function render(c: Context<KilnEnv>, deps: Deps, page: ReactElement, status = 200): Promise<Response> {
  return c.body(pageHtml(await pageDocument(c, deps, page)), status as 200, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" });
}

/**
 * Pages kept as HTML, keyed by what the route says the page shows (`key`: its name and props,
 * anything JSON can write) and by everything the page context puts in a page (the caller,
 * locale, brand, theme, dark, drawer, the path forms send preferences back to). Rendering is a
 * function of those alone (no page kept this way reads the time or a per-request token), so the
 * same inputs are the same bytes: a crowd of crawlers on the login page, or a list page polled
 * while nothing changes, costs a lookup, not a render. A request with a flash to show is rendered for itself. At most KEPT_PAGES_MAX are
 * kept (the oldest go first): distinct queries cannot grow it.
 * A page is kept as a Blob, whose bytes every answer shares: an answer made from the string
 * copies it (a login page's 18 kB, held as 36 kB of UTF-16 by its non-Latin characters), and at
 * 10,000 answers a second those copies were most of what the collector had to collect
 * (docs/benchmarks.md, "What a console line waits for").
 */
export const KEPT_PAGES_MAX = 100;
const keptPages = new Map<string, Blob>();

export async function renderKept(c: Context<KilnEnv>, deps: Deps, key: unknown, page: () => ReactElement, status = 200): Promise<Response> {
  if (getCookie(c, COOKIES.flash)) return render(c, deps, page(), status);
  const context = await pageContext(c, deps);
  const full = JSON.stringify([key, status, context.user, context.sharedServers, context.unconfirmedEmail, context.locale, context.brand, context.theme.name, context.dark ?? null, context.drawerCollapsed, context.backPath, context.path, context.translationUrl]);
  let kept = keptPages.get(full);
  if (kept === undefined) {
    kept = new Blob([pageHtml(<PageContext.Provider value={context}>{page()}</PageContext.Provider>)]);
    if (keptPages.size >= KEPT_PAGES_MAX) keptPages.delete(keptPages.keys().next().value!);
    keptPages.set(full, kept);
  }
  return c.body(kept, status as 200, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" });
}

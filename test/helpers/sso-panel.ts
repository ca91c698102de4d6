// A test panel served on a loopback port (the provider sends a browser back to it), with helpers
// that walk a login through a provider as a browser would: the panel's redirect, the provider
// (its own fixture's follow function), the callback, keeping the panel's cookies.
import { afterAll, beforeAll, expect } from "bun:test";
import { testPanel, loginAs, type TestPanel } from "./app";
import { startRogueOidc, type RogueOidc } from "./rogue-oidc";
import { SCOPES } from "../../core/scopes";
import { servePanel } from "../../server/serve";
import type { KilnConfig } from "../../server/config";

export interface SsoPanel {
  panel: TestPanel;
  base: string;
  admin: { token: string; userId: number; email: string };
  /** Adds a provider through the API as the administrator; answers the response. */
  addProvider(body: Record<string, unknown>): Promise<Response>;
  stop(): void;
}

export async function ssoPanel(overrides: Partial<KilnConfig> = {}): Promise<SsoPanel> {
  const panel = await testPanel(overrides);
  const http = servePanel(panel.app, { port: 0, hostname: "127.0.0.1" });
  const base = `http://127.0.0.1:${http.port}`;
  const admin = await loginAs(panel.db, [SCOPES.admin]);
  return {
    panel,
    base,
    admin,
    addProvider: (body) => fetch(`${base}/api/auth/providers`, { method: "POST", headers: { authorization: `Bearer ${admin.token}`, "content-type": "application/json" }, body: JSON.stringify(body) }),
    stop: () => http.stop(true),
  };
}

/** What a browser ends with after the panel's callback: where it was sent, the session cookie when one was set, the page when one was shown. */
export interface SsoLanding {
  status: number;
  location: string | null;
  session: string | null;
  cookies: string[];
  body: string;
  /** The browser's key to a password step the callback asked for (the `kiln_sso` cookie), as a Cookie header; "" when none. */
  browser: string;
}

/** The `kiln_sso` cookie a response set, as a Cookie header ("" when none): only the browser that began a login finishes it. */
const browserCookie = (response: Response): string => response.headers.getSetCookie().map((c) => /^kiln_sso=[^;]+/.exec(c)?.[0]).find((v) => v !== undefined) ?? "";
const joined = (...cookies: string[]) => cookies.filter(Boolean).join("; ");

/** Starts a login at the panel (`path`, with the browser's cookies), lets `follow` take it through the provider, then calls the callback; `began` is the Cookie header that browser holds then. */
export async function ssoLogin(base: string, path: string, follow: (authorizationUrl: string) => Promise<URL>, cookie = "", form?: Record<string, string>): Promise<SsoLanding & { callback: URL; began: string }> {
  const headers: Record<string, string> = cookie ? { cookie, origin: base } : {};
  if (form) headers["content-type"] = "application/x-www-form-urlencoded";
  const start = await fetch(`${base}${path}`, { redirect: "manual", headers, method: path.startsWith("/account/") ? "POST" : "GET", body: form ? new URLSearchParams(form) : undefined });
  const location = start.headers.get("location");
  if (!location || start.status >= 400) throw new Error(`the panel did not send the browser to the provider: ${start.status} ${await start.text()}`);
  const began = joined(cookie, browserCookie(start));
  const callback = await follow(location);
  return { ...(await land(callback, began)), callback, began };
}

/** Requests the callback as the browser would; the URL may be replayed by a test. */
export async function land(callback: URL, cookie = ""): Promise<SsoLanding> {
  const response = await fetch(callback, { redirect: "manual", headers: cookie ? { cookie } : {} });
  const cookies = response.headers.getSetCookie();
  const session = cookies.map((c) => /^kiln=([^;]+)/.exec(c)?.[1]).find((v) => v !== undefined && v !== "") ?? null;
  return { status: response.status, location: response.headers.get("location"), session, cookies, body: await response.text(), browser: browserCookie(response) };
}

/**
 * For a test file: a fresh ssoPanel and a rogue OIDC provider (./rogue-oidc) before its tests,
 * added to the panel as provider "corp" with `provider`'s fields (trustEmail, allowRegistration…)
 * unless `provider` is null; handed to `use`, then `ready` (a test file's own setup); stopped after.
 */
export function rogueProviderForFile(provider: Record<string, unknown> | null, use: (made: { rig: SsoPanel; idp: RogueOidc }) => void, ready: () => Promise<void> = async () => undefined): void {
  let made: { rig: SsoPanel; idp: RogueOidc } | undefined;
  beforeAll(async () => {
    const rig = await ssoPanel();
    const idp = await startRogueOidc();
    made = { rig, idp };
    use(made);
    if (provider) expect((await rig.addProvider({ id: "corp", name: "Corp", type: "oidc", issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, ...provider })).status).toBe(201);
    await ready();
  });
  afterAll(() => {
    made?.rig.stop();
    made?.idp.stop();
  });
}

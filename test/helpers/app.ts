// A fresh panel app on a fresh migrated in-memory database, for tests that drive app.request().
import { totpCode } from "./totp";
import type { Db } from "../../db";
import { openTestDatabase } from "./database";
import { assetsFromFiles, filesToEmbed, loadAssets, type AssetStore } from "../../server/assets";
import { loadThemes } from "../../server/themes";
import { createApp } from "../../server/app";
import { loadConfig, type KilnConfig } from "../../server/config";
import { createUser } from "../../server/services/users";
import { createSession } from "../../server/services/sessions";
import type { Scope } from "../../core/scopes";
import type { Deps } from "../../server/deps";
import { LoginThrottle } from "../../server/services/auth/throttle";
import { ChallengeStore } from "../../server/services/passkeys/challenges";

export interface TestPanel {
  app: ReturnType<typeof createApp>;
  db: Db;
  deps: Deps;
  /** request helper that fills in the origin and accepts a session token */
  request(path: string, init?: RequestInit & { token?: string; host?: string }): Promise<Response>;
}

let built: Promise<AssetStore> | undefined;

/**
 * The browser bundles npm test built once with the executable (KILN_TEST_BUNDLE, build.ts's
 * folder), served as the executable serves them; else bundled here, once per process (0.6 s of
 * CPU, paid again by every test file that starts a panel).
 */
function testAssets(): Promise<AssetStore> {
  const dir = process.env.KILN_TEST_BUNDLE;
  if (!dir) return loadAssets();
  built ??= assetsFromFiles(filesToEmbed(dir));
  return built;
}

export async function testPanel(overrides: Partial<KilnConfig> = {}): Promise<TestPanel> {
  const db = await openTestDatabase();
  const assets = await testAssets();
  // No test panel builds the checkout's executable unless it asks to (executableBuild).
  const deps: Deps = { config: { ...loadConfig({}, "/tmp"), executableBuild: null, ...overrides }, db, assets, themes: loadThemes(assets.statics), throttle: new LoginThrottle().storedIn(db), challenges: new ChallengeStore(db) };
  const app = createApp(deps);
  return {
    app,
    db,
    deps,
    async request(path, init = {}) {
      const headers = new Headers(init.headers);
      if (init.token) headers.set("cookie", [headers.get("cookie"), `kiln=${init.token}`].filter(Boolean).join("; "));
      headers.set("host", init.host ?? "localhost");
      return app.request(`http://${init.host ?? "localhost"}${path}`, { ...init, headers });
    },
  };
}

let counter = 0;

/** Creates a user with the given scopes and returns a valid session token for them. */
export async function loginAs(db: Db, scopes: Scope[] = []): Promise<{ token: string; userId: number; email: string }> {
  counter++;
  const email = `user${counter}@example.com`;
  const { id } = await createUser(db, { email, username: `user${counter}x`, password: "password123", scopes });
  return { token: await createSession(db, id), userId: id, email };
}

/** Requests as a browser navigating would: asking for HTML. */
export const HTML = { accept: "text/html" };

/** The message key a redirect leaves in its kiln_flash cookie for the next page, if any. */
export const flashOf = (res: Response) => /kiln_flash=([^;]+)/.exec(res.headers.get("set-cookie") ?? "")?.[1];

let nextAddress = 0;
/**
 * A JSON POST to `panel` (made with trustProxy) from an address no earlier call of the process
 * used, so the login throttle's per-address count never decides a test about something else.
 */
export function postFromNewAddress(panel: TestPanel, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  nextAddress++;
  const forwarded = `198.51.${Math.floor(nextAddress / 250) % 250}.${nextAddress % 250}`;
  return panel.request(path, { method: "POST", headers: { "content-type": "application/json", "x-forwarded-for": forwarded, ...headers }, body: JSON.stringify(body) });
}

/** An account with two-factor on (enrolled as a program would, through the API), its secret and its ten recovery codes. */
export async function enrolledInTwoFactor(panel: TestPanel): Promise<Awaited<ReturnType<typeof loginAs>> & { secret: string; codes: string[] }> {
  const user = await loginAs(panel.db);
  const json = { "content-type": "application/json" };
  const { secret } = (await (await panel.request("/api/self/otp", { method: "POST", token: user.token })).json()) as { secret: string };
  const on = await panel.request("/api/self/otp", { method: "PUT", token: user.token, headers: json, body: JSON.stringify({ token: totpCode(secret), password: "password123" }) });
  if (on.status !== 204) throw new Error(`turning two-factor on answered ${on.status}`);
  const answer = await panel.request("/api/self/otp/recovery", { method: "POST", token: user.token, headers: json, body: JSON.stringify({ password: "password123" }) });
  const { codes } = (await answer.json()) as { codes: string[] };
  if (codes?.length !== 10) throw new Error(`the recovery codes answered ${answer.status}`);
  return { ...user, secret, codes };
}

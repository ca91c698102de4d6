// The password step that links a provider identity to the account holding its verified email
// linked the identity as soon as the password was right, before the account's second factor: the
// TOTP step came only afterwards, for that one login. Someone holding the victim's password (not
// their authenticator) and a provider account that shows the victim's address as verified gave the
// password, walked away from the code, and signed in through the provider again: the identity was
// linked by then, and a provider trusted for two-factor (whose own account the attacker set up with
// MFA) skipped the victim's TOTP for good. The step now asks the account's code too, and links
// nothing without it.
import { expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import * as OTPAuth from "otpauth";
import { schema } from "../../db";
import { createUser } from "../../server/services/users";
import { rogueProviderForFile, ssoLogin, type SsoPanel } from "../helpers/sso-panel";
import { validClaims, type RogueOidc } from "../helpers/rogue-oidc";
import { followAuthorization } from "../helpers/oidc-provider";
import { totpCode } from "../helpers/totp";

let rig: SsoPanel;
let idp: RogueOidc;
let victimId: number;
const secret = new OTPAuth.Secret().base32;

rogueProviderForFile({ trustEmail: true, satisfiesTwoFactor: true }, (made) => void ({ rig, idp } = made), async () => {
  victimId = (await createUser(rig.panel.db, { username: "victim", email: "victim@example.com", password: "victims-password" })).id;
  await rig.panel.db.update(schema.users).set({ otpEnabled: true, otpSecret: secret }).where(eq(schema.users.id, victimId)).run();
});

const linkedTo = async (subject: string) => (await rig.panel.db.select().from(schema.userIdentities).where(eq(schema.userIdentities.subject, subject)).get())?.userId;
const sessionCookie = (response: Response) => response.headers.getSetCookie().some((c) => /^kiln=[^;]+/.test(c));

/** A login through the provider as `sub`, whose account there shows the victim's address, verified, and MFA. */
async function asAttacker(sub: string) {
  idp.nextIdToken((ctx) => ctx.sign(validClaims(ctx, { sub, email: "victim@example.com", email_verified: true, amr: ["pwd", "mfa"] })));
  return await ssoLogin(rig.base, "/auth/sso/corp", followAuthorization);
}

const give = (landing: Awaited<ReturnType<typeof asAttacker>>, form: Record<string, string>) => {
  const token = new URL(landing.location!, rig.base).searchParams.get("token")!;
  return fetch(`${rig.base}/auth/sso/link`, { method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded", origin: rig.base, cookie: landing.browser }, body: new URLSearchParams({ token, ...form }) });
};

test("the victim's password without their code links nothing, so the provider cannot stand in for the code afterwards", async () => {
  const landing = await asAttacker("mallory");
  expect(landing.location).toStartWith("/auth/sso/link?token=");
  for (const form of [{ password: "victims-password" }, { password: "victims-password", code: "000000" }] as Record<string, string>[]) {
    const given = await give(landing, form);
    expect(given.status).toBeGreaterThanOrEqual(400);
    expect(sessionCookie(given)).toBe(false);
  }
  expect(await linkedTo("mallory")).toBeUndefined();
  // Signing in through the provider again finds no link: the password step once more, no session.
  const again = await asAttacker("mallory");
  expect(again.session).toBeNull();
  expect(again.location).toStartWith("/auth/sso/link?token=");
});

test("the page asks for the code of an account that has one", async () => {
  const landing = await asAttacker("page-check");
  const page = await (await fetch(new URL(landing.location!, rig.base), { headers: { cookie: landing.browser } })).text();
  expect(/<input[^>]*name="code"/.test(page)).toBe(true);
});

test("the owner, with password and code, links and is logged in (the control case)", async () => {
  const landing = await asAttacker("owner-at-corp");
  const given = await give(landing, { password: "victims-password", code: totpCode(secret) });
  expect(given.status).toBe(303);
  expect(sessionCookie(given)).toBe(true);
  expect(await linkedTo("owner-at-corp")).toBe(victimId);
});

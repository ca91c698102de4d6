// Switching two-factor on asks the account's current password: with a session alone (a stolen
// cookie, an unlocked laptop) a thief enrolled their own authenticator, and the holder was asked at
// the next login for a code they never had: locked out until a manager switched it off. Attacked
// through the API (PufferPanel's calls) and the Account page's form alike; an account a provider
// made has no password and gives a fresh sign-in through its provider instead.
import { beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { schema } from "../../db";
import { testPanel, loginAs, type TestPanel } from "../helpers/app";
import { totpCode } from "../helpers/totp";

let panel: TestPanel;
const json = { "content-type": "application/json" };
const form = { "content-type": "application/x-www-form-urlencoded", accept: "text/html" };

beforeAll(async () => {
  panel = await testPanel();
});

const otpEnabled = async (userId: number) => (await panel.db.select({ on: schema.users.otpEnabled }).from(schema.users).where(eq(schema.users.id, userId)).get())!.on;

async function startEnrolment(token: string): Promise<string> {
  const started = await panel.request("/api/self/otp", { method: "POST", token });
  expect(started.status).toBe(200);
  return ((await started.json()) as { secret: string }).secret;
}

test("a stolen session alone does not switch two-factor on through the API", async () => {
  const victim = await loginAs(panel.db);
  const secret = await startEnrolment(victim.token);
  const bare = await panel.request("/api/self/otp", { method: "PUT", token: victim.token, headers: json, body: JSON.stringify({ token: totpCode(secret) }) });
  expect(bare.status).toBe(400);
  expect((await bare.json()).error).toMatchObject({ code: "ErrFieldRequired", metadata: { field: "password" } });
  const guessed = await panel.request("/api/self/otp", { method: "PUT", token: victim.token, headers: json, body: JSON.stringify({ token: totpCode(secret), password: "a-guess" }) });
  expect(guessed.status).toBe(401);
  expect((await guessed.json()).error.code).toBe("ErrInvalidCredentials");
  expect(await otpEnabled(victim.userId)).toBe(false);
  // The holder, with the password, switches it on with the same code (a refused try burnt no step).
  const holder = await panel.request("/api/self/otp", { method: "PUT", token: victim.token, headers: json, body: JSON.stringify({ token: totpCode(secret), password: "password123" }) });
  expect(holder.status).toBe(204);
  expect(await otpEnabled(victim.userId)).toBe(true);
});

test("a stolen session alone does not switch two-factor on through the Account page", async () => {
  const victim = await loginAs(panel.db);
  const secret = await startEnrolment(victim.token);
  const bare = await panel.request("/account/otp/confirm", { method: "POST", token: victim.token, headers: form, body: new URLSearchParams({ token: totpCode(secret) }).toString() });
  expect(bare.status).toBe(400);
  expect(await otpEnabled(victim.userId)).toBe(false);
  const holder = await panel.request("/account/otp/confirm", { method: "POST", token: victim.token, headers: form, body: new URLSearchParams({ token: totpCode(secret), password: "password123" }).toString() });
  expect(holder.status).toBe(200);
  expect(await otpEnabled(victim.userId)).toBe(true);
});

test("an account without a password (a provider made it) does not switch it on with its session alone", async () => {
  const sso = await loginAs(panel.db);
  await panel.db.update(schema.users).set({ passwordHash: "" }).where(eq(schema.users.id, sso.userId)).run();
  const secret = await startEnrolment(sso.token);
  // It proves itself by a fresh sign-in through its provider instead (provider-account-proof.test.ts).
  const refused = await panel.request("/api/self/otp", { method: "PUT", token: sso.token, headers: json, body: JSON.stringify({ token: totpCode(secret) }) });
  expect(refused.status).toBe(403);
  expect((await refused.json()).error.code).toBe("ErrProviderSignInRequired");
  expect(await otpEnabled(sso.userId)).toBe(false);
});

// Attack: a stranger registers with an address to learn whether it is taken, and reads the answer
// from the new account's own pages. With a link to mail, an address another account held made the
// account with a placeholder (~…@unconfirmed.invalid) and its address waiting, while a free one
// made it with the address itself: /api/self and the Account page showed the placeholder in one
// case and the address in the other. Every such registration now holds its address as pending,
// free or held, and the two accounts read the same, their address, name and id aside; both sign
// in by their username until the link is used, and by the address after.
import { beforeAll, afterAll, expect, test } from "bun:test";
import { testPanel, HTML, type TestPanel } from "../helpers/app";
import { confirmationTokenIn, mailThrough, startSmtp, type Smtp } from "../helpers/smtp";
import { jsonInit, formInit } from "../helpers/panel-node";
import { setSetting } from "../../server/services/settings";
import { createUser } from "../../server/services/users";

let panel: TestPanel;
let smtp: Smtp;
const HELD = "taken-holder@corp.example";
const FREE = "nobody-here@corp.example";

beforeAll(async () => {
  panel = await testPanel({ trustProxy: true });
  smtp = await startSmtp();
  await mailThrough(panel.db, smtp.port);
  await setSetting(panel.db, "panel.registrationEnabled", "true");
  await createUser(panel.db, { username: "taken-holder", email: HELD, password: "holder-password" });
});
afterAll(async () => await smtp.close());

interface Registrant { email: string; username: string; token: string; id: number }
const registrants: Registrant[] = [];

async function register(email: string, username: string): Promise<Registrant> {
  const res = await panel.request("/auth/register", { ...jsonInit("POST", { username, email, password: "password123" }), headers: { "content-type": "application/json", "x-forwarded-for": "198.51.100.7" } });
  expect(res.status).toBe(200);
  const { token } = await res.json();
  const self = await (await panel.request("/api/self", { token })).json();
  return { email, username, token, id: self.id };
}

/** What the registrant reads, with its own address, username and id written alike. */
async function seenBy(r: Registrant): Promise<{ self: string; account: string; servers: string }> {
  // The account's id (in /api/self) and when it signed in (its logins' times) are its own.
  const mask = (text: string) => text.replaceAll(r.email, "<address>").replaceAll(r.username, "<username>").replace(`"id":${r.id},`, '"id":"<id>",').replace(/<time [^>]*>[^<]*<\/time>/g, "<time/>");
  return {
    self: mask(await (await panel.request("/api/self", { token: r.token })).text()),
    account: mask(await (await panel.request("/account", { token: r.token, headers: HTML })).text()),
    servers: mask(await (await panel.request("/server", { token: r.token, headers: HTML })).text()),
  };
}

const login = async (email: string) => (await panel.request("/auth/login", jsonInit("POST", { email, password: "password123" }))).status;

test("a registration with a held address reads as one with a free address", async () => {
  registrants.push(await register(FREE, "alike-free"), await register(HELD, "alike-held"));
  const [free, held] = await Promise.all(registrants.map(seenBy));
  expect(held!.self).toBe(free!.self);
  expect(held!.account).toBe(free!.account);
  expect(held!.servers).toBe(free!.servers);
  // Both say the address waits for its link.
  expect(JSON.parse(free!.self)).toEqual({ id: "<id>", username: "<username>", email: "", emailConfirmed: false, pendingEmail: "<address>", otpEnabled: false, scopes: [] });
  expect(free!.account).toContain("<address> is waiting for confirmation");
  expect(free!.account).not.toContain("unconfirmed.invalid");
  // Only the free address is mailed; the holder keeps theirs and signs in with it.
  await smtp.arrived(1);
  await Bun.sleep(300);
  expect(smtp.received.map((m) => m.to)).toEqual([[FREE]]);
  expect((await panel.request("/auth/login", jsonInit("POST", { email: HELD, password: "holder-password" }))).status).toBe(200);
});

test("both sign in by their username until the link is used, then by the address", async () => {
  const [free, held] = registrants as [Registrant, Registrant];
  expect(await login(free.email)).toBe(400);
  expect(await login(held.email)).toBe(400);
  expect(await login(free.username)).toBe(200);
  expect(await login(held.username.toUpperCase())).toBe(200);
  const token = confirmationTokenIn(smtp.received[0]!.raw);
  expect((await panel.request("/auth/confirm-email", formInit({ token }))).status).toBe(200);
  expect(await (await panel.request("/api/self", { token: free.token })).json()).toMatchObject({ email: FREE, emailConfirmed: true, pendingEmail: null });
  expect(await login(free.email)).toBe(200);
  // An account with an address of its own signs in by it alone.
  expect(await login(free.username)).toBe(400);
});

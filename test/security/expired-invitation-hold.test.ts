// Attack: a server user with "Manage users" (or anyone who may invite) shares their server with
// bob@corp.example before Bob has an account. The invitation makes an invited account holding the
// address; Bob ignores the stranger's mail, and after seven days its link is dead. Nothing removed
// the account: Bob could no longer register with his address (the generic clash), an administrator
// could not make his account (ErrDuplicateUser), and only someone who found the invitation and
// renewed or deleted it let him in. An invitation whose link has expired now reserves nothing
// (services/users/unconfirmed-hold): a claim that proves the address (the confirmation link used,
// an administrator's account for it, a sign-in provider's verified email) removes it, and what was
// shared with the invitation goes with it. A live invitation keeps its address: its link went there.
import { beforeEach, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { schema } from "../../db";
import { loginAs, testPanel, type TestPanel } from "../helpers/app";
import { jsonInit } from "../helpers/panel-node";
import { confirmationTokenIn, mailThrough, smtpForFile } from "../helpers/smtp";
import { refusals } from "../helpers/refusal";
import { setSetting } from "../../server/services/settings";
import { inviteUser } from "../../server/services/users";
import { SCOPES } from "../../core/scopes";

let panel: TestPanel;
const smtp = smtpForFile();
beforeEach(async () => {
  panel = await testPanel();
  await mailThrough(panel.db, smtp.port);
  await setSetting(panel.db, "panel.registrationEnabled", "true");
});
const { refused } = refusals(async () => await panel.db.$kiln.raw("select id, email, status, email_confirmed from users order by id"));

/** The stranger's invitation of `email`, made `ageDays` ago (it lives seven). */
async function invitedBy(email: string, ageDays: number): Promise<number> {
  const eve = await loginAs(panel.db, []);
  const { id } = await inviteUser(panel.db, { id: eve.userId, scopes: [] }, email, Date.now() - ageDays * 24 * 60 * 60 * 1000);
  return id;
}
const holderOf = async (email: string) => await panel.db.select({ id: schema.users.id, status: schema.users.status, confirmed: schema.users.emailConfirmed }).from(schema.users).where(eq(schema.users.email, email)).all();
const register = (username: string, email: string) => panel.request("/auth/register", jsonInit("POST", { username, email, password: "password123" }));

test("Bob registers the address a dead invitation held, and his link takes it", async () => {
  const invited = await invitedBy("bob@corp.example", 8);
  const res = await register("realbob", "bob@corp.example");
  expect(res.status).toBe(200);
  const link = confirmationTokenIn((await smtp.arrived(1))[0]!.raw);
  expect((await panel.request("/auth/confirm-email", jsonInit("POST", { token: link }))).status).toBe(200);
  const holder = await holderOf("bob@corp.example");
  expect(holder).toEqual([{ id: expect.any(Number), status: "active", confirmed: true }]);
  expect(holder[0]!.id).not.toBe(invited);
  expect(await panel.db.select().from(schema.users).where(eq(schema.users.id, invited)).all()).toEqual([]);
  expect((await panel.request("/auth/login", jsonInit("POST", { email: "bob@corp.example", password: "password123" }))).status).toBe(200);
});

test("an administrator makes the account for an address a dead invitation held", async () => {
  const admin = await loginAs(panel.db, [SCOPES.admin]);
  const invited = await invitedBy("carol@corp.example", 8);
  const made = await panel.request("/api/users", { token: admin.token, ...jsonInit("POST", { username: "realcarol", email: "carol@corp.example", password: "password123" }) });
  expect(made.status).toBe(201);
  expect(await holderOf("carol@corp.example")).toEqual([{ id: (await made.json()).id, status: "active", confirmed: true }]);
  expect(await panel.db.select().from(schema.users).where(eq(schema.users.id, invited)).all()).toEqual([]);
});

test("control: a live invitation keeps its address", async () => {
  const admin = await loginAs(panel.db, [SCOPES.admin]);
  const invited = await invitedBy("dave@corp.example", 6);
  await refused(() => panel.request("/api/users", { token: admin.token, ...jsonInit("POST", { username: "otherdave", email: "dave@corp.example", password: "password123" }) }), { status: 409, code: "ErrDuplicateUser" });
  // Registering answers as for any address (registration-oracle), and takes nothing.
  expect((await register("otherdave", "dave@corp.example")).status).toBe(200);
  expect(await holderOf("dave@corp.example")).toEqual([{ id: invited, status: "invited", confirmed: false }]);
});

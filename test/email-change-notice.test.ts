// The previous address is told when an account's address changes: at once when a manager sets it
// (API and user page) or the holder changes it on a panel that mails no link, when the link is used
// otherwise. Only a confirmed previous address, and only with working email.
import { beforeEach, expect, test } from "bun:test";
import { testPanel, loginAs, type TestPanel } from "./helpers/app";
import { formInit, jsonInit } from "./helpers/panel-node";
import { confirmationTokenIn, mailThrough, smtpForFile } from "./helpers/smtp";
import { setSetting, SETTING_KEYS } from "../server/services/settings";

let panel: TestPanel;
let admin: Awaited<ReturnType<typeof loginAs>>;
const smtp = smtpForFile();
beforeEach(async () => {
  panel = await testPanel();
  admin = await loginAs(panel.db, ["servers.admin"]);
});

async function useEmail(masterUrl = true) {
  await mailThrough(panel.db, smtp.port, { masterUrl });
  await setSetting(panel.db, SETTING_KEYS.companyName, "Acme");
}

const text = (i: number) => smtp.received[i]!.raw.replace(/=\r?\n/g, "");
const noticesTo = (email: string) => smtp.received.filter((m) => m.to.includes(email) && m.raw.includes("Subject: The email address of your Acme account was changed"));
const linkIn = (i: number) => confirmationTokenIn(smtp.received[i]!.raw);
const usernameOf = async (id: number) => ((await panel.db.$kiln.raw(`select username from users where id = ${id}`)) as { username: string }[])[0]!.username;

test("a manager's change tells the previous address at once, naming the new one masked", async () => {
  await useEmail();
  const user = await loginAs(panel.db, []);
  const res = await panel.request(`/api/users/${user.userId}`, { token: admin.token, ...jsonInit("POST", { email: "newaddress@corp.example" }) });
  expect(res.status).toBe(200);
  expect(smtp.received.map((m) => m.to)).toEqual([[user.email]]);
  const mail = text(0);
  expect(mail).toContain("Subject: The email address of your Acme account was changed");
  expect(mail).toContain(`account ${await usernameOf(user.userId)} on Acme was changed to n***@corp.example`);
  expect(mail).toContain("contact the administrator of Acme at once");
  expect(mail).not.toContain("newaddress");
});

test("the user page's form tells it too", async () => {
  await useEmail();
  const user = await loginAs(panel.db, []);
  const res = await panel.request(`/user/${user.userId}`, { token: admin.token, ...formInit({ username: await usernameOf(user.userId), email: "moved@corp.example", password: "" }) });
  expect(res.status).toBe(303);
  expect(noticesTo(user.email)).toHaveLength(1);
});

test("the holder's own change tells the previous address when the link is used, not before", async () => {
  await useEmail();
  const user = await loginAs(panel.db, []);
  expect((await panel.request("/api/self", { token: user.token, ...jsonInit("PUT", { email: "mine@corp.example", password: "password123" }) })).status).toBe(204);
  expect((await smtp.arrived(1)).map((m) => m.to)).toEqual([["mine@corp.example"]]);
  expect((await panel.request("/auth/confirm-email", jsonInit("POST", { token: linkIn(0) }))).status).toBe(200);
  expect(smtp.received.map((m) => m.to)).toEqual([["mine@corp.example"], [user.email]]);
  expect(text(1)).toContain("m***@corp.example");
});

test("without the master URL the holder's change is made at once, and told at once", async () => {
  await useEmail(false);
  const user = await loginAs(panel.db, []);
  expect((await panel.request("/api/self", { token: user.token, ...jsonInit("PUT", { email: "mine@corp.example", password: "password123" }) })).status).toBe(204);
  expect(smtp.received.map((m) => m.to)).toEqual([[user.email]]);
  // The account page's form too.
  const other = await loginAs(panel.db, []);
  expect((await panel.request("/account/profile", { token: other.token, ...formInit({ username: await usernameOf(other.userId), email: "theirs@corp.example", password: "password123" }) })).status).toBe(303);
  expect(noticesTo(other.email)).toHaveLength(1);
  // The address taken at once is unconfirmed: changing away from it tells nobody.
  expect((await panel.request("/api/self", { token: user.token, ...jsonInit("PUT", { email: "again@corp.example", password: "password123" }) })).status).toBe(204);
  expect(noticesTo("mine@corp.example")).toHaveLength(0);
});

test("an unconfirmed previous address is not told (it is only what the holder typed), nor is anything mailed without email", async () => {
  await useEmail();
  await setSetting(panel.db, "panel.registrationEnabled", "true");
  const { token } = await (await panel.request("/auth/register", jsonInit("POST", { username: "newbie", email: "typed@corp.example", password: "password123" }))).json();
  // Each link leaves after its answer: the registration's first, then the change's.
  await smtp.arrived(1);
  expect((await panel.request("/api/self", { token, ...jsonInit("PUT", { email: "real@corp.example", password: "password123" }) })).status).toBe(204);
  await smtp.arrived(2);
  expect((await panel.request("/auth/confirm-email", jsonInit("POST", { token: linkIn(1) }))).status).toBe(200);
  expect(noticesTo("typed@corp.example")).toHaveLength(0);

  await setSetting(panel.db, "panel.email.provider", "none");
  const user = await loginAs(panel.db, []);
  expect((await panel.request(`/api/users/${user.userId}`, { token: admin.token, ...jsonInit("POST", { email: "quiet@corp.example" }) })).status).toBe(200);
  expect(noticesTo(user.email)).toHaveLength(0);
});

// Confirming an address: the link mailed at registration and at an email change, the page it
// lands on (a button posts it), the Account screen's notice and resend button, an administrator's
// confirmation, and which accounts count as confirmed from the start.
import { beforeEach, describe, expect, test } from "bun:test";
import { testPanel, loginAs, HTML, flashOf, type TestPanel } from "./helpers/app";
import { formInit, jsonInit } from "./helpers/panel-node";
import { confirmationTokenIn, mailThrough, smtpForFile } from "./helpers/smtp";
import { setSetting } from "../server/services/settings";
import { createUser, inviteUser, acceptInvite } from "../server/services/users";
import { SCOPES } from "../core/scopes";

let panel: TestPanel;
const smtp = smtpForFile();
beforeEach(async () => {
  panel = await testPanel();
});

const mailText = (i: number) => smtp.received[i]!.raw.replace(/=\r?\n/g, "");
const linkIn = (i: number) => confirmationTokenIn(smtp.received[i]!.raw);
const self = async (token: string) => await (await panel.request("/api/self", { token })).json();
const page = async (path: string, token?: string) => await (await panel.request(path, { token, headers: HTML })).text();

describe("with email", () => {
  test("registration mails a link; its page confirms with a button, once", async () => {
    await mailThrough(panel.db, smtp.port);
    await setSetting(panel.db, "panel.registrationEnabled", "true");
    const { token } = await (await panel.request("/auth/register", jsonInit("POST", { username: "newbie", email: "new@example.com", password: "password123" }))).json();
    expect((await self(token)).emailConfirmed).toBe(false);
    expect((await smtp.arrived(1)).map((m) => m.to)).toEqual([["new@example.com"]]);
    expect(mailText(0)).toContain("https://panel.example.com/auth/confirm-email?token=");
    // The address waits for its link (pending) as a held one's does: the page does not tell them apart.
    expect(await self(token)).toMatchObject({ email: "", pendingEmail: "new@example.com" });
    expect(await page("/account", token)).toContain("new@example.com is waiting for confirmation");

    const link = linkIn(0);
    const landing = await page(`/auth/confirm-email?token=${encodeURIComponent(link)}`);
    expect(landing).toContain("Confirm new@example.com as the address of the account newbie?");
    expect(landing).toContain('action="/auth/confirm-email"');
    const confirmed = await panel.request("/auth/confirm-email", formInit({ token: link }));
    expect(confirmed.status).toBe(200);
    expect(await confirmed.text()).toContain("new@example.com is confirmed.");
    expect((await self(token)).emailConfirmed).toBe(true);
    expect(await page("/account", token)).not.toContain("is not confirmed");
    // Used once: the link is gone.
    expect((await panel.request("/auth/confirm-email", formInit({ token: link }))).status).toBe(400);
  });

  test("an email change waits beside the current address; the account page resends; the link switches it", async () => {
    await mailThrough(panel.db, smtp.port);
    const user = await loginAs(panel.db, []);
    const change = await panel.request("/account/profile", { token: user.token, ...formInit({ username: "user-renamed", email: "moved@example.com", password: "password123" }) });
    expect(change.status).toBe(303);
    expect(await self(user.token)).toMatchObject({ username: "user-renamed", email: user.email, emailConfirmed: true, pendingEmail: "moved@example.com" });
    const account = await page("/account", user.token);
    expect(account).toContain("moved@example.com is waiting for confirmation");
    expect(account).toContain('action="/account/email/resend"');

    await smtp.arrived(1);
    const resent = await panel.request("/account/email/resend", { token: user.token, ...formInit({}) });
    expect(flashOf(resent)).toBe("account.email.sent");
    expect((await smtp.arrived(2)).map((m) => m.to)).toEqual([["moved@example.com"], ["moved@example.com"]]);
    // Only the newest link works.
    expect((await panel.request("/auth/confirm-email", jsonInit("POST", { token: linkIn(0) }))).status).toBe(400);
    const used = await panel.request("/auth/confirm-email", jsonInit("POST", { token: linkIn(1) }));
    expect(await used.json()).toEqual({ email: "moved@example.com" });
    expect(await self(user.token)).toMatchObject({ email: "moved@example.com", emailConfirmed: true, pendingEmail: null });
    // Nothing left to send.
    expect(await (await panel.request("/api/self/email/confirmation", { token: user.token, method: "POST" })).json()).toEqual({ sent: false });
  });
});

describe("without email", () => {
  test("an own email change is made at once and unconfirmed; an administrator confirms it on the user page", async () => {
    const user = await loginAs(panel.db, []);
    expect((await panel.request("/api/self", { token: user.token, ...jsonInit("PUT", { email: "moved@example.com", password: "password123" }) })).status).toBe(204);
    expect(await self(user.token)).toMatchObject({ email: "moved@example.com", emailConfirmed: false, pendingEmail: null });
    const account = await page("/account", user.token);
    expect(account).toContain("until an administrator confirms it");
    expect(account).not.toContain('action="/account/email/resend"');
    expect((await panel.request("/api/self/email/confirmation", { token: user.token, method: "POST" })).status).toBe(400);

    const admin = await loginAs(panel.db, [SCOPES.admin]);
    expect(await page(`/user/${user.userId}`, admin.token)).toContain("This address is not confirmed");
    const marked = await panel.request(`/user/${user.userId}/email/confirm`, { token: admin.token, ...formInit({}) });
    expect(flashOf(marked)).toBe("users.emailConfirmed");
    expect((await self(user.token)).emailConfirmed).toBe(true);
    // An address an administrator sets is one they vouch for.
    expect((await panel.request(`/api/users/${user.userId}`, { token: admin.token, ...jsonInit("POST", { email: "set@example.com" }) })).status).toBe(200);
    expect(await self(user.token)).toMatchObject({ email: "set@example.com", emailConfirmed: true });
  });

  test("accounts an administrator made, and invitations once accepted, are confirmed", async () => {
    const made = await createUser(panel.db, { username: "madeby", email: "made@example.com", password: "password123" });
    const invited = await inviteUser(panel.db, { id: 0, scopes: [SCOPES.admin] }, "invited@example.com");
    await acceptInvite(panel.db, { token: invited.token, username: "invitee", password: "password123" });
    const rows = await panel.db.$kiln.raw("select id, email_confirmed from users order by id");
    expect(rows).toEqual([{ id: made.id, email_confirmed: 1 }, { id: invited.id, email_confirmed: 1 }]);
  });
});

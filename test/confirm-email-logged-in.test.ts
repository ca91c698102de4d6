// The page an address's confirmation link lands on offers a logged-in visitor the way back to the
// panel and to their account page (the link is often opened in the browser that holds the panel),
// and a visitor who is not logged in the login.
import { beforeEach, expect, test } from "bun:test";
import { testPanel, loginAs, HTML, type TestPanel } from "./helpers/app";
import { formInit } from "./helpers/panel-node";
import { sendConfirmation } from "../server/services/users/email-confirmation";

let panel: TestPanel;
beforeEach(async () => {
  panel = await testPanel();
});

/** A link for the account's own address, as registration mails it (the mailer keeps the token). */
async function linkFor(userId: number, email: string): Promise<string> {
  let token = "";
  await sendConfirmation(panel.db, userId, email, {
    requester: "127.0.0.1",
    send: async (_to, made) => {
      token = made;
    },
  });
  return token;
}
const page = async (path: string, token?: string) => await (await panel.request(path, { token, headers: HTML })).text();
const NEXT = 'data-testid="confirm-email-next"';

test("logged in, the link's page offers the panel and the account page, not a login", async () => {
  const eve = await loginAs(panel.db, []);
  const link = await linkFor(eve.userId, eve.email);
  const landing = await page(`/auth/confirm-email?token=${encodeURIComponent(link)}`, eve.token);
  expect(landing).toContain(NEXT);
  expect(landing).toContain('<a href="/server">Back to the panel</a>');
  expect(landing).toContain('<a href="/account">Go to your account page</a>');
  expect(landing).not.toContain('href="/auth/login"');
  // The note for someone who holds nothing (confirm your address first) would only repeat the page.
  expect(landing).not.toContain('data-testid="no-access-notice"');
  // And once confirmed.
  const done = await panel.request("/auth/confirm-email", { token: eve.token, ...formInit({ token: link }) });
  expect(done.status).toBe(200);
  const html = await done.text();
  expect(html).toContain(`${eve.email} is confirmed.`);
  expect(html).toContain(NEXT);
  expect(html).not.toContain('href="/auth/login"');
  // A link that is no longer good says so, with the same ways on.
  const spent = await page(`/auth/confirm-email?token=${encodeURIComponent(link)}`, eve.token);
  expect(spent).toContain(NEXT);
});

test("logged out, the link's page offers the login", async () => {
  const eve = await loginAs(panel.db, []);
  const link = await linkFor(eve.userId, eve.email);
  const landing = await page(`/auth/confirm-email?token=${encodeURIComponent(link)}`);
  expect(landing).toContain('<a href="/auth/login">Log in</a>');
  expect(landing).not.toContain(NEXT);
});

// Someone who holds nothing is told to ask an administrator to add them by their address; while
// that address is unconfirmed a share by it is refused (ErrEmailUnconfirmed), so the server list's
// empty state and the no-access note on other pages say to confirm it first and link to the
// account page (docs/accounts.md, "Confirmed addresses").
import { beforeEach, expect, test } from "bun:test";
import { testPanel, loginAs, HTML, type TestPanel } from "./helpers/app";
import { SCOPES } from "../core/scopes";

let panel: TestPanel;
beforeEach(async () => {
  panel = await testPanel();
});

const page = async (path: string, token: string, headers: Record<string, string> = {}) => await (await panel.request(path, { token, headers: { ...HTML, ...headers } })).text();
const unconfirm = async (userId: number) => await panel.db.$kiln.raw(`update users set email_confirmed = 0 where id = ${userId}`);
const MARK = 'data-testid="no-access-unconfirmed"';

test("an unconfirmed holder of nothing is told to confirm the address first, with the way to the account page", async () => {
  const eve = await loginAs(panel.db, []);
  await unconfirm(eve.userId);
  const list = await page("/server", eve.token);
  expect(list).toContain(MARK);
  expect(list).toContain(`Your email address (${eve.email}) is not confirmed yet, and nobody can add you to a server by an unconfirmed address`);
  expect(list).not.toContain("ask one to add you to it");
  expect(list).toContain('<a href="/account">Go to your account page</a>');
  // The account page carries the note too, without a link to itself.
  const account = await page("/account", eve.token);
  expect(account).toContain(MARK);
  expect(account).not.toContain("Go to your account page");
  // In the reader's language.
  expect(await page("/server", eve.token, { "accept-language": "de" })).toContain(`Ihre E-Mail-Adresse (${eve.email}) ist noch nicht bestätigt`);
});

test("a confirmed holder of nothing is still told to ask to be added by the address", async () => {
  const bob = await loginAs(panel.db, []);
  const list = await page("/server", bob.token);
  expect(list).not.toContain(MARK);
  expect(list).toContain(`ask one to add you to it, with the email address you signed in with (${bob.email})`);
  expect(await page("/account", bob.token)).toContain("ask one to add you to it");
});

test("someone who holds a scope is not asked about the address at all", async () => {
  const creator = await loginAs(panel.db, [SCOPES.serversView, SCOPES.serversCreate]);
  await unconfirm(creator.userId);
  const list = await page("/server", creator.token);
  expect(list).not.toContain(MARK);
  expect(list).toContain('href="/addserver"');
});

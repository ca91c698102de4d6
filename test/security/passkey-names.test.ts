// A passkey's name is its holder's to write, and an administrator reads it on the user's page
// when deciding which of that account's passkeys to remove (a takeover's leftovers). It was shown
// as written: a right-to-left override made "\u202Eyek-kcab" read as "back-key", a zero-width
// space made two passkeys look alike, a line break or spaces at the ends passed for nothing. It
// is shown now by the rule of labels someone else wrote (core/text/shown-label), as the account's
// linked providers beside it are: those characters as visible escapes. And a name cut to its 60
// characters keeps whole characters (it cut an emoji in half, storing a lone surrogate).
import { beforeEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { testPanel, loginAs, HTML, type TestPanel } from "../helpers/app";
import { jsonInit } from "../helpers/panel-node";
import { SoftAuthenticator } from "../helpers/soft-authenticator";
import { schema } from "../../db";
import { SCOPES } from "../../core/scopes";

const ORIGIN = "http://localhost";
let panel: TestPanel;

beforeEach(async () => {
  panel = await testPanel();
});

async function registerNamed(holder: { token: string }, name: string): Promise<void> {
  const asked = await panel.request("/api/self/passkeys/options", { token: holder.token, ...jsonInit("POST", { password: "password123" }) });
  expect(asked.status).toBe(200);
  const response = new SoftAuthenticator().register(await asked.json(), ORIGIN);
  expect((await panel.request("/api/self/passkeys", { token: holder.token, ...jsonInit("POST", { name, response }) })).status).toBe(201);
}

describe("a passkey's name as others see it", () => {
  test("an administrator sees hidden characters of another account's passkey names as escapes", async () => {
    const admin = await loginAs(panel.db, [SCOPES.admin]);
    const holder = await loginAs(panel.db);
    for (const name of ["\u202Eyek-kcab", "work\u200Bkey", "line\nbreak"]) await registerNamed(holder, name);
    const page = await (await panel.request(`/user/${holder.userId}`, { token: admin.token, headers: HTML })).text();
    const rows = page.split('data-passkey="').slice(1).map((row) => row.slice(0, row.indexOf("</li>")));
    expect(rows.length).toBe(3);
    for (const escape of ["\\u202E", "\\u200B", "\\n"]) expect(rows.some((row) => row.includes(`<mark class="label-escape">${escape}</mark>`))).toBe(true);
    // Not a character of them reaches the page as written.
    for (const hidden of ["\u202E", "\u200B"]) expect(page).not.toContain(hidden);
    // The holder's own Account page shows them the same way.
    const own = await (await panel.request("/account", { token: holder.token, headers: HTML })).text();
    expect(own).toContain('<mark class="label-escape">\\u202E</mark>');
  });

  test("a name cut to 60 characters keeps whole characters", async () => {
    const holder = await loginAs(panel.db);
    await registerNamed(holder, `a${"\u{1F600}".repeat(80)}`);
    const [stored] = await panel.db.select({ name: schema.passkeys.name }).from(schema.passkeys).where(eq(schema.passkeys.userId, holder.userId)).all();
    expect(stored!.name.isWellFormed()).toBe(true);
    expect(Array.from(stored!.name).length).toBe(60);
  });
});

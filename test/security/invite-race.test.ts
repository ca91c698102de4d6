// Attack: one invitation link accepted several times at once. Each acceptance hashes its password
// (tens of milliseconds) between reading the invitation and taking the account, so three
// acceptances racing with different usernames and passwords all used to pass: each got a session
// and the last write decided whose password the account kept. Acceptance is one conditional step:
// exactly one wins, the others get ErrInviteLinkInvalid and change nothing (no session, no name).
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { schema } from "../../db";
import { SCOPES } from "../../core/scopes";
import { testPanel, loginAs, type TestPanel } from "../helpers/app";
import { jsonInit } from "../helpers/panel-node";
import { checkCredentials } from "../../server/services/auth/credentials";

async function invited(panel: TestPanel, email: string): Promise<{ id: number; token: string }> {
  const admin = await loginAs(panel.db, [SCOPES.admin]);
  const res = await panel.request("/api/users", { token: admin.token, ...jsonInit("POST", { email }) });
  expect(res.status).toBeLessThan(300);
  const { id, inviteUrl } = await res.json();
  return { id, token: new URL(inviteUrl).searchParams.get("token")! };
}

const accept = (panel: TestPanel, token: string, username: string, form = false) =>
  form
    ? panel.request("/auth/invite", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html" }, body: new URLSearchParams({ token, username, password: `pass-${username}-123`, passwordConfirm: `pass-${username}-123` }).toString() })
    : panel.request("/auth/invite", jsonInit("POST", { token, username, password: `pass-${username}-123` }));

describe("racing acceptances of one invitation", () => {
  for (const form of [false, true]) {
    test(`three at once${form ? " (HTML forms)" : ""}: one account, one session, two ErrInviteLinkInvalid`, async () => {
      const panel = await testPanel();
      const invite = await invited(panel, `racer${form ? "-form" : ""}@example.com`);
      const names = ["first", "second", "third"].map((n) => `${n}${form ? "f" : ""}`);
      const answers = await Promise.all(names.map((name) => accept(panel, invite.token, name, form)));
      const won = answers.map((a) => (form ? a.status === 303 : a.status === 200));
      expect(won.filter(Boolean).length).toBe(1);
      const winner = names[won.indexOf(true)]!;
      for (const [i, answer] of answers.entries()) {
        if (won[i]) continue;
        expect(answer.status).toBe(400);
        if (form) expect(await answer.text()).toContain("invite link appears to be invalid");
        else expect((await answer.json()).error.code).toBe("ErrInviteLinkInvalid");
        expect(answer.headers.get("set-cookie") ?? "").not.toContain("kiln=");
      }
      const row = (await panel.db.select().from(schema.users).where(eq(schema.users.id, invite.id)).get())!;
      expect([row.username, row.status, row.inviteTokenHash]).toEqual([winner, "active", null]);
      // The winner's password is the account's; the losers' are not.
      for (const name of names) {
        const ok = await checkCredentials(panel.db, `racer${form ? "-form" : ""}@example.com`, `pass-${name}-123`).then(() => true, () => false);
        expect([name, ok]).toEqual([name, name === winner]);
      }
      expect((await panel.db.select().from(schema.sessions).where(eq(schema.sessions.userId, invite.id)).all()).length).toBe(1);
    });
  }
});

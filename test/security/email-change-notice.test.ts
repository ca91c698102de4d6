// Attack: whoever takes an account over (a stolen session and password) moves its address to one
// of theirs first; the holder learned nothing until a sign-in failed, and by then the thief had
// reset what they liked. The previous address is now told when the change takes effect
// (services/users/email-change-notice). The thief chooses the new address, which the panel's mail
// names: validateEmail lets through anything but spaces and "@", so a NEL (U+0085) or a bidi
// override put the thief's own line ("To undo this, open https://evil.example/undo") into the
// panel's genuine mail to the holder. The address is named masked, only its first character and a
// plain domain shown. A mail server that fails or refuses never undoes or blocks the change.
import { beforeEach, expect, test } from "bun:test";
import { testPanel, loginAs, type TestPanel } from "../helpers/app";
import { jsonInit } from "../helpers/panel-node";
import { confirmationTokenIn, mailThrough, smtpForFile, startSmtp } from "../helpers/smtp";
import { setSetting } from "../../server/services/settings";

let panel: TestPanel;
const smtp = smtpForFile();
beforeEach(async () => {
  panel = await testPanel();
});

const decoded = (raw: string) => raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
const emailOf = async (id: number) => ((await panel.db.$kiln.raw(`select email from users where id = ${id}`)) as { email: string }[])[0]!.email;

// Controls and bidi overrides are refused by the address check now (email-address-characters);
// what it still takes can spell a link, which the mail must not repeat.
const INJECTED = ["xhttps://evil.example/undo@corp.example", "xundo-at-evil.example@corp.example", "x/To-undo-this-open:https://evil.example/undo@corp.example"];

test("a thief's change of the holder's address is told to the holder, naming the new address masked and nothing of the thief's", async () => {
  // Without the master URL the change is made at once (no mail server would carry a link to such
  // an address anyway).
  await mailThrough(panel.db, smtp.port, { masterUrl: false });
  for (const address of INJECTED) {
    const bob = await loginAs(panel.db, []);
      // The thief holds Bob's session and password.
    expect((await panel.request("/api/self", { token: bob.token, ...jsonInit("PUT", { email: address, password: "password123" }) })).status).toBe(204);
    expect(await emailOf(bob.userId)).toBe(address.toLowerCase());
    const toBob = smtp.received.filter((m) => m.to.includes(bob.email));
    expect(toBob).toHaveLength(1);
    const mail = decoded(toBob[0]!.raw);
    expect(mail).not.toContain("evil");
    expect(mail).not.toContain("undo");
    expect(mail).toMatch(/changed to [x*]\*\*\*@(\*\*\*|corp\.example)\./);
  }
});

test("a mail server that refuses does not block or undo the change, by a manager or at the link", async () => {
  const admin = await loginAs(panel.db, ["servers.admin"]);
  // Nothing listens on the port of a server just closed.
  const closed = await startSmtp();
  await closed.close();
  await mailThrough(panel.db, closed.port, { masterUrl: false });
  const user = await loginAs(panel.db, []);
  const res = await panel.request(`/api/users/${user.userId}`, { token: admin.token, ...jsonInit("POST", { email: "moved@corp.example" }) });
  expect(res.status).toBe(200);
  expect(await emailOf(user.userId)).toBe("moved@corp.example");

  // The link was mailed while mail worked; the notice at its use fails.
  const second = await startSmtp();
  await mailThrough(panel.db, second.port);
  const holder = await loginAs(panel.db, []);
  expect((await panel.request("/api/self", { token: holder.token, ...jsonInit("PUT", { email: "mine@corp.example", password: "password123" }) })).status).toBe(204);
  const token = confirmationTokenIn((await second.arrived(1))[0]!.raw);
  await second.close();
  expect((await panel.request("/auth/confirm-email", jsonInit("POST", { token }))).status).toBe(200);
  expect(await emailOf(holder.userId)).toBe("mine@corp.example");
});

test("a squatter's unconfirmed address is no mail cannon: changing away from it mails Bob nothing more", async () => {
  await mailThrough(panel.db, smtp.port);
  await setSetting(panel.db, "panel.registrationEnabled", "true");
  const { token } = await (await panel.request("/auth/register", jsonInit("POST", { username: "squatter", email: "bob@corp.example", password: "password123" }))).json();
  for (const [i, next] of ["one@evil.example", "two@evil.example"].entries()) {
    expect((await panel.request("/api/self", { token, ...jsonInit("PUT", { email: next, password: "password123" }) })).status).toBe(204);
    // The registration's link, then one per change (the links leave after the answer).
    expect((await panel.request("/auth/confirm-email", jsonInit("POST", { token: confirmationTokenIn((await smtp.arrived(2 + i)).at(-1)!.raw) }))).status).toBe(200);
  }
  // Only the registration's link went to Bob.
  expect(smtp.received.filter((m) => m.to.includes("bob@corp.example"))).toHaveLength(1);
});

// Attack: mail-bombing an address through the confirmation link. Each registration with
// victim@corp.example, each email change to it and each "Send the link again" mailed the panel's
// confirmation to it, and the only bounds were per account (10 changes and 5 resends a day) and
// per registering network (10 accounts a day): accounts made yesterday count afresh today, so one
// network sent the victim 15 mails per account it ever made, every day, and as many networks as the
// sender had multiplied it. The mail is now bounded per recipient (services/users/email-confirmation):
// a few a day from any one network, and a bound for the address from everyone together; past
// either the request is ErrTooManyRequests and nothing is mailed or stored, whichever account holds
// the address (so the refusal tells nothing of who has one).
import { beforeEach, expect, test } from "bun:test";
import { loginAs, testPanel, type TestPanel } from "../helpers/app";
import { confirmationTokenIn, mailThrough, smtpForFile } from "../helpers/smtp";
import { setSetting } from "../../server/services/settings";
import { CONFIRMATION_MAILS_PER_ADDRESS, CONFIRMATION_MAILS_PER_NETWORK, CONFIRMATION_RESENDS_PER_DAY } from "../../server/services/users/email-confirmation";
import { EMAIL_CHANGES_PER_DAY } from "../../server/services/users/email-change-quota";

let panel: TestPanel;
const smtp = smtpForFile();
beforeEach(async () => {
  panel = await testPanel({ trustProxy: true });
  await mailThrough(panel.db, smtp.port);
});

const VICTIM = "victim@corp.example";
const json = (method: string, network: string, body?: unknown, token?: string) => ({ method, token, headers: { "content-type": "application/json", "x-forwarded-for": network }, body: body === undefined ? undefined : JSON.stringify(body) });
/** How many mails `address` received, once `expected` in all have arrived and any more had time to (the links leave after the answer). */
async function mailsTo(address: string, expected: number): Promise<number> {
  await smtp.arrived(expected);
  await Bun.sleep(300);
  return smtp.received.filter((m) => m.to.includes(address)).length;
}

/**
 * One account of the sender's, from `network`: every change to the victim's address and every
 * resend its own bounds allow (EMAIL_CHANGES_PER_DAY, CONFIRMATION_RESENDS_PER_DAY), or (`untilRefused`)
 * until the first refusal; the statuses, and the account's session.
 */
async function floodFrom(network: string, untilRefused = false): Promise<{ statuses: number[]; token: string }> {
  const eve = await loginAs(panel.db, []);
  const statuses: number[] = [];
  const asks = [
    ...Array.from({ length: EMAIL_CHANGES_PER_DAY }, () => () => panel.request("/api/self", json("PUT", network, { email: VICTIM, password: "password123" }, eve.token))),
    ...Array.from({ length: CONFIRMATION_RESENDS_PER_DAY }, () => () => panel.request("/api/self/email/confirmation", json("POST", network, undefined, eve.token))),
  ];
  for (const ask of asks) {
    statuses.push((await ask()).status);
    if (untilRefused && statuses.at(-1) === 429) break;
  }
  return { statuses, token: eve.token };
}

test("one network sends an address a few links a day, however many accounts it registers or holds", async () => {
  await setSetting(panel.db, "panel.registrationEnabled", "true");
  for (let i = 0; i < 2; i++) await panel.request("/auth/register", json("POST", "203.0.113.7", { username: `eve-squat${i}`, email: VICTIM, password: "password123" }));
  const first = await floodFrom("203.0.113.7");
  const second = await floodFrom("203.0.113.7", true);
  // The two registrations' links, then the first changes' up to the bound; every change after it refused.
  expect(first.statuses.slice(0, EMAIL_CHANGES_PER_DAY)).toEqual([...Array(CONFIRMATION_MAILS_PER_NETWORK - 2).fill(204), ...Array(EMAIL_CHANGES_PER_DAY - CONFIRMATION_MAILS_PER_NETWORK + 2).fill(429)]);
  expect(second.statuses).toEqual([429]);
  expect(await mailsTo(VICTIM, CONFIRMATION_MAILS_PER_NETWORK)).toBe(CONFIRMATION_MAILS_PER_NETWORK);
  // A refused change is stored nowhere: the second account waits for no address.
  expect((await (await panel.request("/api/self", { token: second.token })).json()).pendingEmail).toBeNull();

  // Control: the same accounts' links to another address, and another network's to this one, still go.
  const other = await loginAs(panel.db, []);
  expect((await panel.request("/api/self", json("PUT", "203.0.113.7", { email: "other@corp.example", password: "password123" }, other.token))).status).toBe(204);
  expect(await mailsTo("other@corp.example", CONFIRMATION_MAILS_PER_NETWORK + 1)).toBe(1);
  const bob = await loginAs(panel.db, []);
  expect((await panel.request("/api/self", json("PUT", "198.51.100.9", { email: VICTIM, password: "password123" }, bob.token))).status).toBe(204);
  expect(await mailsTo(VICTIM, CONFIRMATION_MAILS_PER_NETWORK + 2)).toBe(CONFIRMATION_MAILS_PER_NETWORK + 1);
  // The last link mailed is Bob's, and it confirms his change.
  expect((await panel.request("/auth/confirm-email", json("POST", "198.51.100.9", { token: confirmationTokenIn(smtp.received.at(-1)!.raw) }))).status).toBe(200);
});

test("many networks together send an address a bounded number of links a day", async () => {
  const statuses: number[] = [];
  // Each network its own bound's worth (two addresses of one /64 are one network).
  for (let n = 1; CONFIRMATION_MAILS_PER_NETWORK * (n - 1) <= CONFIRMATION_MAILS_PER_ADDRESS; n++) statuses.push(...(await floodFrom(`2001:db8:${n}::${n % 2 ? 1 : 2}`, true)).statuses);
  expect(await mailsTo(VICTIM, CONFIRMATION_MAILS_PER_ADDRESS)).toBe(CONFIRMATION_MAILS_PER_ADDRESS);
  expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
});

test("a refusal tells nothing of who holds the address: an address with an account is counted the same", async () => {
  const holder = await loginAs(panel.db, []);
  const taken: number[] = [];
  const free: number[] = [];
  for (let i = 0; i < CONFIRMATION_MAILS_PER_NETWORK + 1; i++) {
    const prober = await loginAs(panel.db, []);
    taken.push((await panel.request("/api/self", json("PUT", "203.0.113.50", { email: holder.email, password: "password123" }, prober.token))).status);
    free.push((await panel.request("/api/self", json("PUT", "203.0.113.50", { email: "nobody@corp.example", password: "password123" }, prober.token))).status);
  }
  expect(taken).toEqual(free);
  expect(await mailsTo(holder.email, CONFIRMATION_MAILS_PER_NETWORK)).toBe(0);
});

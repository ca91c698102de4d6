// Attack: a visitor on IPv6 is given a whole /64 and may send from any address in it. The login
// throttle counted failures per full address, so one visitor spraying a password over account
// after account took a fresh address, and a fresh count, for every guess: the address lock
// never came. It now counts an IPv6 caller by its /64 (as registrations and sign-in starts are
// counted); another /64, and IPv4, are counted as before.
import { beforeEach, expect, test } from "bun:test";
import { testPanel, type TestPanel } from "../helpers/app";
import { createUser } from "../../server/services/users";
import { LoginThrottle } from "../../server/services/auth/throttle";

let panel: TestPanel;
/** Failures that lock (no slowing, so the test need not wait out the delays). */
const LOCK = 5;

beforeEach(async () => {
  panel = await testPanel({ trustProxy: true });
  panel.deps.throttle = new LoginThrottle({ windowMs: 60_000, slowAfter: 100, lockAfter: LOCK, lockMs: 60_000, delayStepMs: 0, maxDelayMs: 0 }).storedIn(panel.db);
  for (let i = 0; i < 3 * LOCK; i++) await createUser(panel.db, { username: `player${i}`, email: `player${i}@example.com`, password: "right-password-1", scopes: [] });
});

const login = (address: string, email: string) => panel.request("/auth/login", { method: "POST", headers: { "content-type": "application/json", "x-forwarded-for": address }, body: JSON.stringify({ email, password: "Summer2026!" }) });

test("a password sprayed over accounts from address after address of one /64 is locked as one address", async () => {
  const statuses: number[] = [];
  for (let i = 0; i < 3 * LOCK; i++) statuses.push((await login(`2001:db8:1:2::${(i + 1).toString(16)}`, `player${i}@example.com`)).status);
  expect(statuses.slice(0, LOCK)).toEqual(Array(LOCK).fill(400));
  expect(statuses.slice(LOCK)).toEqual(Array(2 * LOCK).fill(429));
  // Another subscriber's /64 is not locked by it, nor is an IPv4 caller.
  expect((await login("2001:db8:1:3::1", "player0@example.com")).status).toBe(400);
  expect((await login("192.0.2.10", "player1@example.com")).status).toBe(400);
});

// Attack: the login throttle (and the activity log's refusal counts, keyed alike) counts a caller
// by its address, an IPv6 one by its /64. Two ways the key was not the caller:
// - behind a trusted proxy that writes the client's port into X-Forwarded-For ("192.0.2.7:40001",
//   as Azure's Application Gateway does), the port was part of the key: a fresh connection was a
//   fresh count, so one visitor sprayed a password over account after account and never met the
//   address lock (15 guesses, 0 refused);
// - on a panel reached from IPv4 through a NAT64 translator (SIIT-DC: 64:ff9b::a.b.c.d is the IPv4
//   host a.b.c.d), every IPv4 visitor is in 64:ff9b::/64: one visitor's wrong guesses locked them
//   all out (another host's right password refused, 429).
// Now a forwarded address is read without its port, and a NAT64 address is counted as the one
// IPv4 host it stands for. Other spellings of one address (IPv4-mapped, upper case, leading zeros,
// a zone id) were one key already and stay so.
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

const login = (address: string, email: string, password = "Summer2026!") => panel.request("/auth/login", { method: "POST", headers: { "content-type": "application/json", "x-forwarded-for": `203.0.113.9, ${address}` }, body: JSON.stringify({ email, password }) });

async function spray(addresses: string[]): Promise<number[]> {
  const statuses: number[] = [];
  for (const [i, address] of addresses.entries()) statuses.push((await login(address, `player${i}@example.com`)).status);
  return statuses;
}

const lockedAfter = (statuses: number[]) => {
  expect(statuses.slice(0, LOCK)).toEqual(Array(LOCK).fill(400));
  expect(statuses.slice(LOCK)).toEqual(Array(statuses.length - LOCK).fill(429));
};

test("a forwarded address with a fresh port on every connection is one address", async () => {
  lockedAfter(await spray(Array.from({ length: 3 * LOCK }, (_, i) => `192.0.2.7:${40001 + i}`)));
  expect((await login("192.0.2.7", "player0@example.com", "right-password-1")).status).toBe(429);
  // An IPv6 client's, bracketed with its port, is its /64 as without.
  lockedAfter(await spray(Array.from({ length: 3 * LOCK }, (_, i) => (i % 2 ? `[2001:db8:5:6::${i + 1}]:${50000 + i}` : `2001:db8:5:6::${i + 1}`))));
  expect((await login("192.0.2.8:40001", "player0@example.com", "right-password-1")).status).toBe(200);
});

test("IPv4 visitors through a NAT64 translator are counted host by host, not as one /64", async () => {
  // 64:ff9b::c000:207 is 192.0.2.7, in either spelling.
  lockedAfter(await spray(Array.from({ length: 2 * LOCK }, (_, i) => (i % 2 ? "64:ff9b::c000:207" : "64:ff9b::192.0.2.7"))));
  expect((await login("192.0.2.7", "player0@example.com", "right-password-1")).status).toBe(429);
  // Another IPv4 host through the same translator is not locked by it.
  expect((await login("64:ff9b::c000:208", "player0@example.com", "right-password-1")).status).toBe(200);
});

test("other spellings of one address are one address", async () => {
  const spellings = ["::ffff:192.0.2.9", "192.0.2.9", "::FFFF:C000:209", "0:0:0:0:0:ffff:192.0.2.9", "[::ffff:192.0.2.9]:443"];
  lockedAfter(await spray([...spellings, ...spellings]));
  const v6 = ["2001:DB8:7:8::1", "2001:0db8:0007:0008::2", "2001:db8:7:8::3%eth0", "2001:db8:7:8:0:0:0:4", "2001:db8:7:8::ffff:5"];
  lockedAfter(await spray([...v6, ...v6]));
  // Neighbouring networks are not: the next /64, and the next IPv4 address.
  expect((await login("2001:db8:7:9::1", "player0@example.com", "right-password-1")).status).toBe(200);
  expect((await login("::ffff:192.0.2.10", "player0@example.com", "right-password-1")).status).toBe(200);
});

// Attack: a visitor on IPv6 is given a whole /64 and may send from any address in it. The login
// throttle counted failures per full address, so one visitor spraying a password over account
// after account took a fresh address, and a fresh count, for every guess: the address lock
// never came. It now counts an IPv6 caller by its /64 (as registrations and sign-in starts are
// counted); another /64, and IPv4, are counted as before.
test("a password sprayed over accounts from address after address of one /64 is locked as one address", async () => {
  lockedAfter(await spray(Array.from({ length: 3 * LOCK }, (_, i) => `2001:db8:1:2::${(i + 1).toString(16)}`)));
  // Another subscriber's /64 is not locked by it, nor is an IPv4 caller.
  expect((await login("2001:db8:1:3::1", "player0@example.com")).status).toBe(400);
  expect((await login("192.0.2.10", "player1@example.com")).status).toBe(400);
});

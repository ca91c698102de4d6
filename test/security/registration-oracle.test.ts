// Attack: a stranger registers with addresses to learn which are live accounts. With working email
// an address held unconfirmed registered (the new account waits for its link) while one whose
// holder confirmed it was refused (ErrSavingInviteduser): the answer named the live accounts. Every
// held address is now answered as a free one is (status, fields, a session), in the same order of
// time (the mail goes, or not, after the answer); only an address held unconfirmed is mailed, and
// no holder loses anything.
import { beforeAll, afterAll, expect, test } from "bun:test";
import { testPanel, loginAs, type TestPanel } from "../helpers/app";
import { mailThrough, startSmtp, type Smtp } from "../helpers/smtp";
import { setSetting } from "../../server/services/settings";
import { createUser } from "../../server/services/users";

let panel: TestPanel;
let smtp: Smtp;
let address = 0;
const CONFIRMED = "confirmed-holder@corp.example";
const UNCONFIRMED = "unconfirmed-holder@corp.example";

beforeAll(async () => {
  panel = await testPanel({ trustProxy: true });
  smtp = await startSmtp();
  await mailThrough(panel.db, smtp.port);
  await setSetting(panel.db, "panel.registrationEnabled", "true");
  await createUser(panel.db, { username: "confirmed-holder", email: CONFIRMED, password: "password123" });
  await createUser(panel.db, { username: "unconfirmed-holder", email: UNCONFIRMED, password: "password123", emailConfirmed: false });
});
afterAll(async () => await smtp.close());

async function register(email: string): Promise<{ status: number; shape: string; ms: number }> {
  address++;
  const started = performance.now();
  const res = await panel.request("/auth/register", { method: "POST", headers: { "content-type": "application/json", "x-forwarded-for": `203.0.113.${address}` }, body: JSON.stringify({ username: `prober${address}`, email, password: "password123" }) });
  const ms = performance.now() - started;
  const body = await res.json();
  // What the answer says, its values aside (the token is random): its fields and their types.
  return { status: res.status, shape: JSON.stringify(Object.entries(body).map(([k, v]) => [k, Array.isArray(v) ? v : typeof v]).sort()), ms };
}

test("a confirmed holder's address answers as an unconfirmed holder's and a free one", async () => {
  const free = await register("nobody@corp.example");
  const unconfirmed = await register(UNCONFIRMED);
  const confirmed = await register(CONFIRMED);
  expect(free.status).toBe(200);
  expect(unconfirmed).toMatchObject({ status: free.status, shape: free.shape });
  expect(confirmed).toMatchObject({ status: free.status, shape: free.shape });
  // One order of magnitude: none waits for the mail it may send.
  for (const r of [unconfirmed, confirmed]) expect(r.ms).toBeLessThan(Math.max(10 * free.ms, 2000));
  // The free and the unconfirmed address are mailed their links; the confirmed holder nothing.
  const mails = await smtp.arrived(2);
  await Bun.sleep(300);
  expect(smtp.received.map((m) => m.to).sort()).toEqual([["nobody@corp.example"], [UNCONFIRMED]]);
  expect(mails).toHaveLength(2);
  // The confirmed holder keeps the address and signs in with it.
  const login = await panel.request("/auth/login", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: CONFIRMED, password: "password123" }) });
  expect(login.status).toBe(200);
});

test("without email a clash is refused alike, confirmed or not", async () => {
  const bare = await testPanel();
  await setSetting(bare.db, "panel.registrationEnabled", "true");
  const c = await loginAs(bare.db);
  await createUser(bare.db, { username: "unconf", email: "unconf@corp.example", password: "password123", emailConfirmed: false });
  const answers = [];
  for (const email of [c.email, "unconf@corp.example"]) {
    const res = await bare.request("/auth/register", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username: `p${answers.length}x`, email, password: "password123" }) });
    answers.push({ status: res.status, body: await res.json() });
  }
  expect(answers[0]).toEqual(answers[1]!);
  expect(answers[0]!.status).toBe(400);
});

// Attack: learning whether an address has an account here from one's own email change. The
// answer's status is the same whether the address is taken (services/users/email-confirmation:
// a taken address gets no mail), but the request waited for the mail it sent: a change to a free
// address answered only once the mail provider had accepted the link, one to a taken address at
// once. With a provider that takes a second (an SMTP relay across the internet, an HTTP API under
// load) the difference was the whole second; with a provider that refused, a free address answered
// an error and a taken one 204. The link is now handed to the provider after the answer, and a
// failure is logged, so neither the time nor the status depends on who holds the address.
import { afterEach, expect, test } from "bun:test";
import { loginAs, testPanel, type TestPanel } from "../helpers/app";
import { jsonInit } from "../helpers/panel-node";
import { mailThrough, startSmtp, type Smtp } from "../helpers/smtp";

const PROVIDER_MS = 3000;
let smtp: Smtp | undefined;
afterEach(async () => {
  await smtp?.close();
  smtp = undefined;
});

async function probe(panel: TestPanel, email: string): Promise<{ status: number; ms: number }> {
  const prober = await loginAs(panel.db, []);
  const started = performance.now();
  const res = await panel.request("/api/self", { token: prober.token, ...jsonInit("PUT", { email, password: "password123" }) });
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - started };
}

test("a slow mail provider does not tell a free address from a taken one by the answer's time", async () => {
  smtp = await startSmtp({ answerAfterMs: PROVIDER_MS });
  const panel = await testPanel();
  await mailThrough(panel.db, smtp.port);
  const holder = await loginAs(panel.db, []);
  const taken = await probe(panel, holder.email);
  const free = await probe(panel, "nobody@corp.example");
  expect([taken.status, free.status]).toEqual([204, 204]);
  // Both answer before the provider would have accepted anything (the password check is the same work).
  expect(Math.abs(free.ms - taken.ms)).toBeLessThan(PROVIDER_MS / 2);
  // The link still goes, once the answer has left.
  expect((await smtp.arrived(1)).map((m) => m.to)).toEqual([["nobody@corp.example"]]);
});

test("a mail provider that refuses does not tell a free address from a taken one by the answer's status", async () => {
  smtp = await startSmtp({ refuse: true });
  const panel = await testPanel();
  await mailThrough(panel.db, smtp.port);
  const holder = await loginAs(panel.db, []);
  const taken = await probe(panel, holder.email);
  const free = await probe(panel, "nobody@corp.example");
  expect(free.status).toBe(taken.status);
  await smtp.arrived(1);
  // Each change waits for its link all the same (the Account screen offers it again).
  const waiting = await panel.db.$kiln.raw("select email from email_confirmations order by email");
  expect(waiting).toEqual([{ email: "nobody@corp.example" }, { email: holder.email }]);
});

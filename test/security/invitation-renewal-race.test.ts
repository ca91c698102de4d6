// Renewing an expired invitation by sharing a server mails a fresh link to the address (the
// address alone: see share-expired-invitation). The renewal read the invitation as expired and
// then wrote the new link in two steps, so shares asked for together all found it expired and
// each mailed the address: a server user sent as many as they asked at once (their invitations'
// daily bound, and every sharer's besides) to one address of their choosing, the panel's mail
// used as a flood on someone else's mailbox. Now the link is renewed only where it is still
// expired, in the one write: one share renews and mails, the others share with the live
// invitation as any share does, and mail nothing.
import { beforeEach, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { schema } from "../../db";
import { loginAs, testPanel, type TestPanel } from "../helpers/app";
import { jsonInit } from "../helpers/panel-node";
import { mailThrough, smtpForFile } from "../helpers/smtp";
import { SCOPES } from "../../core/scopes";

let panel: TestPanel;
let admin: Awaited<ReturnType<typeof loginAs>>;
const smtp = smtpForFile();

beforeEach(async () => {
  panel = await testPanel();
  await mailThrough(panel.db, smtp.port);
  admin = await loginAs(panel.db, [SCOPES.admin]);
  const node = await panel.db.insert(schema.nodes).values({ name: "n", publicHost: "h", publicPort: 1, privateHost: "127.0.0.1", privatePort: 1, sftpPort: 1, secret: "s".repeat(32), createdAt: new Date() }).returning().get();
  await panel.db.insert(schema.servers).values({ id: "srv-a", name: "srv-a", nodeId: node.id, createdAt: new Date() }).run();
});

const share = (email: string, token: string) => panel.request(`/api/servers/srv-a/user/${encodeURIComponent(email)}`, { token, ...jsonInit("PUT", { viewServerConsole: true }) });

async function sharer() {
  const user = await loginAs(panel.db, []);
  expect((await panel.request(`/api/servers/srv-a/user/${encodeURIComponent(user.email)}`, { token: admin.token, ...jsonInit("PUT", { editServerUsers: true, viewServerConsole: true }) })).status).toBe(204);
  return user;
}

test("shares of an expired invitation asked for together mail the address once", async () => {
  const sharers = [await sharer(), await sharer(), await sharer()];
  expect((await share("victim@corp.example", sharers[0]!.token)).status).toBe(201);
  await smtp.arrived(1);
  await panel.db.update(schema.users).set({ inviteExpiresAt: new Date(Date.now() - 1000) }).where(eq(schema.users.email, "victim@corp.example")).run();
  const answers = await Promise.all(sharers.flatMap((user) => Array.from({ length: 6 }, () => share("victim@corp.example", user.token))));
  const statuses = answers.map((answer) => answer.status);
  // One renews (201, a fresh link mailed); the others are shares of the invitation now live: granted
  // to it, nothing mailed (204), as any share of a live one.
  expect(statuses.filter((status) => status === 201)).toHaveLength(1);
  expect(statuses.filter((status) => status === 204)).toHaveLength(answers.length - 1);
  await Bun.sleep(500);
  expect(smtp.received).toHaveLength(2);
  const bob = (await panel.db.select().from(schema.users).where(eq(schema.users.email, "victim@corp.example")).get())!;
  expect(bob.status).toBe("invited");
  expect(bob.inviteExpiresAt!.getTime()).toBeGreaterThan(Date.now());
});

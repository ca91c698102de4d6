// A server shared with an address whose invitation has expired reached nobody: the share was
// granted to the dead invited account and no mail went (an account "still invited" is sent
// nothing), so Bob never learnt of it. Now the address is invited again: a fresh link goes to it
// alone, and what was shared with the invitation before reaches Bob with it. The attack beside
// it: whoever gets an invitation's link back (a users.edit holder) could answer it themselves and
// take what was shared with it, so renewing one they may not manage stays refused.
import { beforeEach, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { schema } from "../../db";
import { loginAs, testPanel, type TestPanel } from "../helpers/app";
import { jsonInit } from "../helpers/panel-node";
import { mailThrough, smtpForFile } from "../helpers/smtp";
import { refusals } from "../helpers/refusal";
import { SCOPES } from "../../core/scopes";

let panel: TestPanel;
let admin: Awaited<ReturnType<typeof loginAs>>;
const smtp = smtpForFile();

beforeEach(async () => {
  panel = await testPanel();
  await mailThrough(panel.db, smtp.port);
  admin = await loginAs(panel.db, [SCOPES.admin]);
  const node = await panel.db.insert(schema.nodes).values({ name: "n", publicHost: "h", publicPort: 1, privateHost: "127.0.0.1", privatePort: 1, sftpPort: 1, secret: "s".repeat(32), createdAt: new Date() }).returning().get();
  for (const id of ["srv-a", "srv-b"]) await panel.db.insert(schema.servers).values({ id, name: id, nodeId: node.id, createdAt: new Date() }).run();
});

const { refused } = refusals(async () => await panel.db.$kiln.raw("select id, email, status, invite_token_hash, invite_expires_at from users order by id"));
const share = (server: string, email: string, token: string) => panel.request(`/api/servers/${server}/user/${encodeURIComponent(email)}`, { token, ...jsonInit("PUT", { viewServerConsole: true }) });
const inviteLinkIn = (raw: string) => decodeURIComponent(/auth\/invite\?token=(?:3D)?([A-Za-z0-9_%-]+)/.exec(raw.replace(/=\r?\n/g, ""))![1]!);

/** A plain user who may share `server` (editServerUsers there, no panel scope). */
async function sharerOf(server: string) {
  const user = await loginAs(panel.db, []);
  expect((await panel.request(`/api/servers/${server}/user/${encodeURIComponent(user.email)}`, { token: admin.token, ...jsonInit("PUT", { editServerUsers: true, viewServerConsole: true }) })).status).toBe(204);
  return user;
}

/** Moves bob's invitation past its life. */
const expire = async (email: string) => await panel.db.update(schema.users).set({ inviteExpiresAt: new Date(Date.now() - 1000) }).where(eq(schema.users.email, email)).run();

test("sharing again with an expired invitation mails a fresh link, and Bob gets both servers", async () => {
  const first = await sharerOf("srv-a");
  const shared = await share("srv-a", "bob@corp.example", first.token);
  expect(shared.status).toBe(201);
  const [firstMail] = await smtp.arrived(1);
  await expire("bob@corp.example");
  const late = await panel.request("/auth/invite", jsonInit("POST", { token: inviteLinkIn(firstMail!.raw), username: "bobby", password: "password123" }));
  expect((await late.json()).error.code).toBe("ErrInviteLinkInvalid");

  const second = await sharerOf("srv-b");
  const again = await share("srv-b", "bob@corp.example", second.token);
  expect(again.status).toBe(201);
  // The link goes to the address alone, never back to a sharer who may not create accounts.
  expect(await again.json()).toEqual({ invited: true, emailSent: true });
  const mails = await smtp.arrived(2);
  expect(mails[1]!.to).toEqual(["bob@corp.example"]);
  const accepted = await panel.request("/auth/invite", jsonInit("POST", { token: inviteLinkIn(mails[1]!.raw), username: "bobby", password: "password123" }));
  expect(accepted.status, await accepted.clone().text()).toBe(200);
  const bob = (await panel.db.select().from(schema.users).where(eq(schema.users.email, "bob@corp.example")).get())!;
  expect(bob.status).toBe("active");
  const servers = await panel.db.select({ server: schema.serverUsers.serverId }).from(schema.serverUsers).where(eq(schema.serverUsers.userId, bob.id)).all();
  expect(servers.map((row) => row.server).sort()).toEqual(["srv-a", "srv-b"]);
});

test("a live invitation is not renewed by a share: nothing is mailed again", async () => {
  const first = await sharerOf("srv-a");
  expect((await share("srv-a", "carol@corp.example", first.token)).status).toBe(201);
  await smtp.arrived(1);
  const second = await sharerOf("srv-b");
  expect((await share("srv-b", "carol@corp.example", second.token)).status).toBe(204);
  await Bun.sleep(300);
  expect(smtp.received).toHaveLength(1);
});

test("a manager who may not manage the invited account cannot renew its expired link and read it", async () => {
  const first = await sharerOf("srv-a");
  expect((await share("srv-a", "dave@corp.example", first.token)).status).toBe(201);
  await smtp.arrived(1);
  await expire("dave@corp.example");
  // users.edit, but not on srv-a: the link would come back to them, and srv-a with it.
  const manager = await loginAs(panel.db, [SCOPES.usersView, SCOPES.usersEdit]);
  await refused(() => panel.request("/api/users", { token: manager.token, ...jsonInit("POST", { email: "dave@corp.example" }) }), { status: 403, code: "ErrUserHasMorePermissions" });
});

// Renewing an expired invitation by sharing a server mails a fresh link to the address (the
// address alone: above). The renewal read the invitation as expired and
// then wrote the new link in two steps, so shares asked for together all found it expired and
// each mailed the address: a server user sent as many as they asked at once (their invitations'
// daily bound, and every sharer's besides) to one address of their choosing, the panel's mail
// used as a flood on someone else's mailbox. Now the link is renewed only where it is still
// expired, in the one write: one share renews and mails, the others share with the live
// invitation as any share does, and mail nothing.
test("shares of an expired invitation asked for together mail the address once", async () => {
  const sharers = [await sharerOf("srv-a"), await sharerOf("srv-a"), await sharerOf("srv-a")];
  expect((await share("srv-a", "victim@corp.example", sharers[0]!.token)).status).toBe(201);
  await smtp.arrived(1);
  await expire("victim@corp.example");
  const answers = await Promise.all(sharers.flatMap((user) => Array.from({ length: 6 }, () => share("srv-a", "victim@corp.example", user.token))));
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

// A sign-in provider's verified email finds an account to link only when the account confirmed
// that address (services/users/email-confirmation): an account that merely typed it (registered
// with bob@corp.example before Bob came) is offered no one's identity. The provider's user proved
// the address theirs, as a confirmation link would: where the provider may make accounts, Bob's is
// made with the address, taken from the squatter (services/users/unconfirmed-hold), which kept him
// out before (ErrEmailUnconfirmed on every try, for as long as the squatter's account lived); where
// it may not, he is told that an unconfirmed account holds it.
import { expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { schema } from "../../db";
import { createUser, inviteUser } from "../../server/services/users";
import { PLACEHOLDER_DOMAIN } from "../../server/services/users/unconfirmed-hold";
import { rogueProviderForFile, ssoLogin, type SsoPanel } from "../helpers/sso-panel";
import { validClaims, type RogueOidc } from "../helpers/rogue-oidc";
import { followAuthorization } from "../helpers/oidc-provider";

let rig: SsoPanel;
let idp: RogueOidc;

rogueProviderForFile({ trustEmail: true, allowRegistration: true }, (made) => void ({ rig, idp } = made));

const asBob = async (sub: string, email: string) => {
  idp.nextIdToken((ctx) => ctx.sign(validClaims(ctx, { sub, email, email_verified: true })));
  return await ssoLogin(rig.base, "/auth/sso/corp", followAuthorization);
};

const holderOf = async (email: string) => await rig.panel.db.select({ username: schema.users.username, confirmed: schema.users.emailConfirmed }).from(schema.users).where(eq(schema.users.email, email)).all();
const allowRegistration = (allow: boolean) => rig.panel.db.update(schema.authProviders).set({ allowRegistration: allow }).where(eq(schema.authProviders.id, "corp")).run();

test("an unconfirmed holder of the address is offered no link; the provider's user gets their own account with it", async () => {
  await allowRegistration(true);
  const squatter = await createUser(rig.panel.db, { username: "squatter", email: "bob@corp.example", password: "password123", emailConfirmed: false });
  const bob = await asBob("bob", "bob@corp.example");
  expect(bob.session).not.toBeNull();
  expect(bob.location ?? "").not.toContain("/auth/sso/link");
  expect(await rig.panel.db.select().from(schema.ssoFlows).where(eq(schema.ssoFlows.pendingSubject, "bob")).all()).toEqual([]);
  // Bob's account, made for him, holds the address confirmed; the squatter's holds a placeholder and no identity.
  const me = await (await fetch(`${rig.base}/api/self`, { headers: { cookie: `kiln=${bob.session}` } })).json();
  expect({ email: me.email, confirmed: me.emailConfirmed }).toEqual({ email: "bob@corp.example", confirmed: true });
  expect(me.id).not.toBe(squatter.id);
  expect(await holderOf("bob@corp.example")).toEqual([{ username: me.username, confirmed: true }]);
  const left = (await rig.panel.db.select({ email: schema.users.email, confirmed: schema.users.emailConfirmed }).from(schema.users).where(eq(schema.users.id, squatter.id)).get())!;
  expect(left.email.endsWith(`@${PLACEHOLDER_DOMAIN}`)).toBe(true);
  expect(left.confirmed).toBe(false);
  expect(await rig.panel.db.select().from(schema.userIdentities).where(eq(schema.userIdentities.userId, squatter.id)).all()).toEqual([]);

  // Control: the same address, confirmed, is offered the password step, and keeps it.
  await createUser(rig.panel.db, { username: "carolx", email: "carol@corp.example", password: "password123" });
  const offered = await asBob("carol", "carol@corp.example");
  expect(offered.location).toStartWith("/auth/sso/link?token=");
  expect(await holderOf("carol@corp.example")).toEqual([{ username: "carolx", confirmed: true }]);
});

test("where the provider makes no accounts, the provider's user is told an unconfirmed account holds the address, which keeps it", async () => {
  await allowRegistration(false);
  try {
    await createUser(rig.panel.db, { username: "squatter2", email: "dave@corp.example", password: "password123", emailConfirmed: false });
    const refused = await asBob("dave", "dave@corp.example");
    expect(refused.session).toBeNull();
    expect(refused.location ?? "").not.toContain("/auth/sso/link");
    expect(refused.body).toContain("The account with dave@corp.example has not confirmed that address");
    expect(await holderOf("dave@corp.example")).toEqual([{ username: "squatter2", confirmed: false }]);
  } finally {
    await allowRegistration(true);
  }
});

test("an invitation whose link expired is no holder either: the provider's user gets the address", async () => {
  await allowRegistration(true);
  const inviter = await createUser(rig.panel.db, { username: "inviter", email: "inviter@corp.example", password: "password123" });
  const dead = await inviteUser(rig.panel.db, { id: inviter.id, scopes: [] }, "erin@corp.example", Date.now() - 8 * 24 * 60 * 60 * 1000);
  const erin = await asBob("erin", "erin@corp.example");
  expect(erin.session).not.toBeNull();
  expect(await holderOf("erin@corp.example")).toEqual([{ username: expect.any(String), confirmed: true }]);
  expect(await rig.panel.db.select().from(schema.users).where(eq(schema.users.id, dead.id)).all()).toEqual([]);
});

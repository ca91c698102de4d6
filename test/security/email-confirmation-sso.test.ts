// A sign-in provider's verified email finds an account to link only when the account confirmed
// that address (services/users/email-confirmation): an account that merely typed it (registered
// with bob@corp.example before Bob came) is offered no one's identity, and the provider's user,
// who proved the address theirs, is told that an unconfirmed account holds it.
import { expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { schema } from "../../db";
import { createUser } from "../../server/services/users";
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

test("an unconfirmed holder of the address is offered no link; a confirmed one is", async () => {
  await createUser(rig.panel.db, { username: "squatter", email: "bob@corp.example", password: "password123", emailConfirmed: false });
  const refused = await asBob("bob", "bob@corp.example");
  expect(refused.session).toBeNull();
  expect(refused.location ?? "").not.toContain("/auth/sso/link");
  expect(refused.body).toContain("The account with bob@corp.example has not confirmed that address");
  expect(await rig.panel.db.select().from(schema.ssoFlows).where(eq(schema.ssoFlows.pendingSubject, "bob")).all()).toEqual([]);

  // Control: the same address, confirmed, is offered the password step.
  await createUser(rig.panel.db, { username: "carolx", email: "carol@corp.example", password: "password123" });
  const offered = await asBob("carol", "carol@corp.example");
  expect(offered.location).toStartWith("/auth/sso/link?token=");
});

// A provider trusted for email made an account from whatever text its email claim held, verified:
// two addresses in one ("a@x.org,b@y.org", what a mailer reads as two recipients), spaces, 320
// characters, no domain. Every other door (registration, invitations, the account form) takes only
// an address the panel's email rule accepts, and the email is also the account's SFTP username.
// A claim that is no such address is now no trusted email: no account, no password step.
import { expect, test } from "bun:test";
import { schema } from "../../db";
import { rogueProviderForFile, ssoLogin, type SsoPanel } from "../helpers/sso-panel";
import { validClaims, type RogueOidc } from "../helpers/rogue-oidc";
import { followAuthorization } from "../helpers/oidc-provider";

let rig: SsoPanel;
let idp: RogueOidc;

rogueProviderForFile({ allowRegistration: true, trustEmail: true }, (made) => void ({ rig, idp } = made));

const emails = async () => (await rig.panel.db.select({ email: schema.users.email }).from(schema.users).all()).map((u) => u.email);

const shapes: Record<string, string> = {
  twoAddresses: "newcomer@example.com,attacker@evil.example",
  spaces: "new comer@example.com",
  noDomain: "newcomer",
  tooLong: `${"a".repeat(300)}@example.com`,
};

for (const [name, email] of Object.entries(shapes)) {
  test(`${name}: a verified email claim that is no address makes no account`, async () => {
    const before = await emails();
    idp.nextIdToken((ctx) => ctx.sign(validClaims(ctx, { sub: `shape-${name}`, email, email_verified: true })));
    const landing = await ssoLogin(rig.base, "/auth/sso/corp", followAuthorization);
    expect(landing.session).toBeNull();
    expect(landing.status).toBe(403);
    expect(await emails()).toEqual(before);
  });
}

test("a well-formed verified address still makes the account (the control case), stored in its one spelling", async () => {
  idp.nextIdToken((ctx) => ctx.sign(validClaims(ctx, { sub: "shape-good", email: " NewComer@Example.com ", email_verified: true })));
  const landing = await ssoLogin(rig.base, "/auth/sso/corp", followAuthorization);
  expect(landing.session).not.toBeNull();
  expect(await emails()).toContain("newcomer@example.com");
});

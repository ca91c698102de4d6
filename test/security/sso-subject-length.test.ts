// OpenID Connect's `sub` is at most 255 ASCII characters (Core 1.0, 2.5.3). A provider's ID token
// may be up to the 1 MiB every answer is read to, and the panel took whatever `sub` it held as the
// identity's key: a hostile or broken provider stored a subject of hundreds of kilobytes per login
// (the identity's primary key, the password step's row, the account page). Longer is now refused.
import { expect, test } from "bun:test";
import { schema } from "../../db";
import { rogueProviderForFile, ssoLogin, type SsoPanel } from "../helpers/sso-panel";
import { validClaims, type RogueOidc } from "../helpers/rogue-oidc";
import { followAuthorization } from "../helpers/oidc-provider";

let rig: SsoPanel;
let idp: RogueOidc;

rogueProviderForFile({ allowRegistration: true, trustEmail: true }, (made) => void ({ rig, idp } = made));

const identities = async () => (await rig.panel.db.select().from(schema.userIdentities).all()).length;

test("a subject of 300,000 characters is refused: nothing stored, nobody logged in", async () => {
  const before = await identities();
  idp.nextIdToken((ctx) => ctx.sign(validClaims(ctx, { sub: "s".repeat(300_000), email: "huge@example.com", email_verified: true })));
  const landing = await ssoLogin(rig.base, "/auth/sso/corp", followAuthorization);
  expect(landing.status).toBe(400);
  expect(landing.session).toBeNull();
  expect(await identities()).toBe(before);
});

test("a subject of 255 characters still logs in (the control case)", async () => {
  idp.nextIdToken((ctx) => ctx.sign(validClaims(ctx, { sub: "s".repeat(255), email: "long@example.com", email_verified: true })));
  const landing = await ssoLogin(rig.base, "/auth/sso/corp", followAuthorization);
  expect(landing.session).not.toBeNull();
});

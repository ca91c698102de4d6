// Single sign-on in a real browser (Chromium) against a real `kiln panel` and a real OpenID
// Connect provider (oidc-provider on loopback): an administrator adds the provider on Settings →
// Sign-in, the login page offers it, and a visitor's click goes through the provider and back,
// making their account and logging them in; the rules' preview answers on the page; roles are made
// on the Roles screen and given on the user's page, where a rule's right is locked until detached.
// Screenshots (KILN_SHOTS) of those pages at 1280 and 390 px and in Arabic.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { hasChromium } from "./helpers/require-part";
import { BROWSER_ADMIN, browserPanelForFile, logInAsAdmin } from "./helpers/browser-panel";
import { SHOT_VARIANTS, shoot, shotContext } from "./helpers/screenshots";
import { startOidcProvider, type OidcFixture } from "./helpers/oidc-provider";

const enabled = hasChromium();
let browser: Browser;
let base: string;
let idp: OidcFixture | undefined;
browserPanelForFile(enabled, (panel) => ({ browser, base } = panel));
beforeAll(async () => {
  if (enabled) idp = await startOidcProvider({ redirectUris: [`${base}/auth/sso/kc/callback`] });
}, 30_000);
afterAll(async () => {
  await idp?.stop();
});

describe.skipIf(!enabled)("single sign-on in the browser", () => {
  test("an administrator adds a provider on Settings → Sign-in; its rules' preview answers there", async () => {
    const page = await browser.newPage();
    await logInAsAdmin(page, base);
    await page.goto(`${base}/settings/sso`);
    const form = page.locator('[data-testid="sso-add-form"]');
    await form.locator("input[name=id]").fill("kc");
    await form.locator("input[name=name]").fill("Keycloak");
    await form.locator("input[name=issuer]").fill(idp!.issuer);
    await form.locator("input[name=clientId]").fill(idp!.clientId);
    await form.locator("input[name=clientSecret]").fill(idp!.clientSecret);
    await form.locator("input[name=scopes]").fill("openid email profile groups");
    await form.locator("input[type=checkbox][name=allowRegistration]").check();
    await form.locator("input[type=checkbox][name=trustEmail]").check();
    await form.locator("textarea[name=rules]").fill(JSON.stringify([{ match: { claim: "groups", contains: "staff" }, grant: { scopes: ["servers.view"] }, revoke: true }]));
    await form.locator("button[type=submit]").click();
    await page.waitForURL(`${base}/settings/sso`);
    await page.locator('[data-provider="kc"]').waitFor();
    await page.locator('[data-provider="kc"] textarea[name=claims]').fill('{"groups": ["staff"]}');
    await page.locator('[data-provider="kc"] form[action$="/preview"] button').click();
    expect(await page.locator('[data-testid="sso-preview"]').textContent()).toContain("servers.view");
    await page.close();
  });

  test("a visitor clicks the provider's button, signs in there and lands logged in, with what the rules grant", async () => {
    idp!.setAccount("gina-sub", { email: "gina@example.com", email_verified: true, preferred_username: "gina", groups: ["staff"] });
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${base}/auth/login`);
    await page.click('[data-testid="sso-providers"] a[href="/auth/sso/kc"]');
    // servers.view, granted by the rule, lands on the server list.
    await page.waitForURL(`${base}/server`);
    const self = await (await page.request.get(`${base}/api/self`)).json();
    expect(self).toMatchObject({ email: "gina@example.com", username: "gina-user", scopes: ["servers.view"] });
    await context.close();
  });

  test("roles are made on the Roles screen and given on the user's page; a rule's right shows locked there until Detach makes it the account's own", async () => {
    const page = await browser.newPage();
    await logInAsAdmin(page, base);
    await page.goto(`${base}/roles`);
    const add = page.locator('[data-testid="role-add"]');
    await add.locator("input[name=name]").fill("helpers");
    await add.locator('input[type=checkbox][value="users.view"]').check();
    await add.locator("button[type=submit]").click();
    await page.waitForURL(/\/roles\/\d+$/);
    const { users } = (await (await page.request.get(`${base}/api/users?email=gina@example.com`)).json()) as { users: { id: number }[] };
    const gina = users[0]!.id;
    await page.goto(`${base}/user/${gina}`);
    // servers.view came from the rule: checked, locked, badged, and listed with Detach.
    const ruled = page.locator('input[type=checkbox][name=scopes][value="servers.view"]');
    expect(await ruled.isChecked()).toBe(true);
    expect(await ruled.isDisabled()).toBe(true);
    expect(await page.locator('[data-testid="user-grants"]').textContent()).toContain("from Keycloak");
    for (const variant of SHOT_VARIANTS) {
      const context = await shotContext(browser, base, variant.viewport, variant.locale, BROWSER_ADMIN);
      const shot = await context.newPage();
      await shot.goto(`${base}/user/${gina}`);
      await shoot(shot, `user-rule-grants-${variant.suffix}`);
      await shot.goto(`${base}/roles`);
      await shoot(shot, `roles-${variant.suffix}`);
      await context.close();
    }
    const roles = page.locator('[data-testid="user-roles"]');
    await roles.locator("input[type=checkbox][name=roles]").first().check();
    await roles.locator("button[type=submit]").click();
    await page.waitForURL(`${base}/user/${gina}`);
    const held = (await (await page.request.get(`${base}/api/users/${gina}/roles`)).json()) as { roles: { name: string }[] };
    expect(held.roles.map((r) => r.name)).toEqual(["helpers"]);
    await page.locator('[data-testid="user-grants"] button[type=submit]').click();
    await page.waitForURL(`${base}/user/${gina}`);
    await page.locator('[data-testid="user-roles"]').waitFor();
    expect(await page.locator('[data-testid="user-grants"]').count()).toBe(0);
    expect(await page.locator('input[type=checkbox][name=scopes][value="servers.view"]').isDisabled()).toBe(false);
    await page.close();
  });

  test("screenshots: the login page with its provider button, Settings → Sign-in, the account page and General settings", async () => {
    for (const variant of SHOT_VARIANTS) {
      const anonymous = await browser.newContext({ viewport: variant.viewport });
      if (variant.locale) await anonymous.addCookies([{ name: "kiln_locale", value: variant.locale, url: base }]);
      const login = await anonymous.newPage();
      await login.goto(`${base}/auth/login`);
      await shoot(login, `login-sso-${variant.suffix}`);
      await anonymous.close();
      const context = await shotContext(browser, base, variant.viewport, variant.locale, BROWSER_ADMIN);
      const page = await context.newPage();
      await page.goto(`${base}/settings/sso`);
      await shoot(page, `settings-sso-${variant.suffix}`);
      // The account page's linked accounts and recent logins; the General settings' activity retention.
      await page.goto(`${base}/account`);
      await shoot(page, `account-sso-${variant.suffix}`);
      await page.goto(`${base}/settings`);
      await shoot(page, `settings-general-${variant.suffix}`);
      await context.close();
    }
  });
});

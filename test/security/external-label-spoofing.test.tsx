// Attacks by a name someone outside the panel chose, shown where people act on it. A character that
// draws nothing or turns the text around ("\u202E" shows "\u202Enimda" as "admin", a zero-width
// space makes a second "Lithium") let the writer pass for another:
// - a mod source's project titled like a popular one (a recorded Modrinth answer served locally,
//   its title changed as any project's owner may): the Mods tab's project card and a modpack
//   search hit show it marked (core/text/shown-label, islands/lib/ShownLabel);
// - an identity provider's email claim, stored as the provider sent it: the account page and the
//   administrator's page of the user show it marked;
// - a template repository's template (an egg whose name and variable names are the repository
//   owner's words): the import dialog, the template list and the Add server form show them marked.
// The value itself is kept as it came, and every action still goes by it.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { schema } from "../../db";
import { fabricStandIn, modrinthPanelForFile } from "../helpers/mods";
import { MODRINTH } from "../helpers/modrinth-fixture";
import { rogueProviderForFile, ssoLogin, type SsoPanel } from "../helpers/sso-panel";
import { validClaims, type RogueOidc } from "../helpers/rogue-oidc";
import { followAuthorization } from "../helpers/oidc-provider";
import { HTML, loginAs, testPanel } from "../helpers/app";
import { serveFolder, type FolderServer } from "../helpers/template-folder-server";
import { SCOPES } from "../../core/scopes";
import { SETTING_KEYS, setSetting } from "../../server/services/settings";
import { getTemplate } from "../../server/services/templates";
import { createNode } from "../../server/services/nodes";

/** A character that hides or reorders text, as itself. */
const HIDDEN = /[\u202A-\u202E\u2066-\u2069\u200B-\u200F]/;
/**
 * What a page shows of itself: its text and the attributes people see or hear (titles, labels),
 * without the island's data, the values its forms send and its data- attributes, which carry the
 * value as it is (the actions go by it).
 */
const shownPart = (html: string) => html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, "").replace(/\s(?:value|data-[\w-]+)="[^"]*"/g, "");
/** No character that hides or reorders text reaches what the page shows as itself. */
const expectNothingHidden = (html: string) => {
  const shown = shownPart(html);
  const at = shown.search(HIDDEN);
  expect(at < 0 ? null : shown.slice(Math.max(0, at - 160), at + 40)).toBeNull();
};
const MARK = (escape: string) => `<mark class="label-escape">${escape}</mark>`;

const { modrinth, ctx } = await modrinthPanelForFile();

describe("a mod source's titles", () => {
  let id: string;
  beforeAll(async () => {
    ({ id } = await fabricStandIn(ctx(), "Titles", "1.20.1"));
  });

  test("a project titled to pass for another is shown marked on its card, and installing it goes by its id", async () => {
    modrinth.project(MODRINTH.lithium).title = "Lithium\u200B";
    const { status, html } = await ctx().page(`/server/${id}?tab=mods&project=${MODRINTH.lithium}&source=modrinth`, ctx().admin.token);
    expect(status).toBe(200);
    expectNothingHidden(html);
    expect(html).toContain(`Lithium${MARK("\\u200B")}`);
    expect(html).toContain(`name="projectId" value="${MODRINTH.lithium}"`);
  });

  test("a modpack whose title is turned around is shown marked in the search", async () => {
    await modrinth.addModpack({ slug: "kiln-reversed-pack", title: "\u202Ekcap lairtnec", gameVersion: "1.20.1", loader: ["fabric-loader", "0.15.11"], mods: [] });
    const { status, html } = await ctx().page(`/server/${id}?tab=mods&packQ=lairtnec&packSource=modrinth`, ctx().admin.token);
    expect(status).toBe(200);
    expectNothingHidden(html);
    expect(html).toContain(`${MARK("\\u202E")}kcap lairtnec`);
  });
});

let rig: SsoPanel;
let idp: RogueOidc;
rogueProviderForFile({ trustEmail: true }, (made) => void ({ rig, idp } = made));

describe("an identity provider's claims", () => {
  test("an email claim with an override is kept as sent and shown marked to its holder and to the administrator", async () => {
    const holder = await loginAs(rig.panel.db, []);
    const claimed = "\u202Emoc.pans@nimda";
    idp.nextIdToken((c) => c.sign(validClaims(c, { sub: "turned", email: claimed, email_verified: true })));
    const linked = await ssoLogin(rig.base, "/account/sso/corp/link", followAuthorization, `kiln=${holder.token}`, { password: "password123" });
    expect(linked.location).toBe("/account");
    const stored = await rig.panel.db.select().from(schema.userIdentities).where(eq(schema.userIdentities.subject, "turned")).get();
    expect(stored?.email).toBe(claimed);
    const shown = `${MARK("\\u202E")}moc.pans@nimda`;
    for (const [path, token] of [["/account", holder.token], [`/user/${holder.userId}`, rig.admin.token]] as const) {
      const page = await rig.panel.request(path, { token, headers: HTML });
      expect({ path, status: page.status }).toEqual({ path, status: 200 });
      const html = await page.text();
      expectNothingHidden(html);
      expect(html).toContain(shown);
    }
  });
});

describe("a template repository's names", () => {
  let root: string;
  let served: FolderServer;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), "kiln-spoof-repo-"));
    mkdirSync(join(root, "games"), { recursive: true });
    const egg = JSON.parse(readFileSync(join(import.meta.dir, "../fixtures/kiln-eggs/ptdl-v2.json"), "utf8"));
    egg.name = "\u202Eemag kcolB";
    egg.variables[1].name = "Level\u200B";
    writeFileSync(join(root, "games/egg-block-game.json"), JSON.stringify(egg));
    served = serveFolder(root);
  });
  afterAll(() => {
    served.stop();
    rmSync(root, { recursive: true, force: true });
  });

  test("the import dialog, the template list and Add server show them marked; the stored template keeps them", async () => {
    const panel = await testPanel();
    await setSetting(panel.db, SETTING_KEYS.templateRepositories, served.url);
    const { token } = await loginAs(panel.db, [SCOPES.admin]);
    await createNode(panel.db, { name: "node", publicHost: "127.0.0.1", publicPort: 1, privateHost: "127.0.0.1", privatePort: 1, sftpPort: 2 });
    const page = async (path: string) => {
      const answer = await panel.request(path, { token, headers: HTML });
      expect({ path, status: answer.status }).toEqual({ path, status: 200 });
      const html = await answer.text();
      expectNothingHidden(html);
      return html;
    };
    const turned = `${MARK("\\u202E")}emag kcolB`;
    expect(await page("/template?import")).toContain(turned);
    const imported = await panel.request("/template/import/block-game", { method: "POST", token, headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html", origin: "http://localhost" }, body: new URLSearchParams({ repository: served.url }).toString() });
    expect(imported.status).toBe(303);
    const stored = await getTemplate(panel.db, "block-game");
    expect(stored?.display).toBe("\u202Eemag kcolB");
    expect(await page("/template")).toContain(turned);
    const adding = await page("/addserver?template=block-game");
    expect(adding).toContain(turned);
    expect(adding).toContain(`Level${MARK("\\u200B")}`);
  });
});

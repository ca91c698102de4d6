// The Templates screens as a browser without script uses them: the list and its import dialog
// (rendered open by the server), importing, Add template, the edit screen with its JSON form,
// delete, the scopes each needs, and the template repositories setting on the Settings screen.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { testPanel, loginAs, HTML, type TestPanel } from "./helpers/app";
import { SCOPES } from "../core/scopes";
import { schema } from "../db";
import { splitCommandLine } from "../core/definition/command-line";
import { SHIPPED_TEMPLATE_SOURCES } from "../templates";
import { getTemplate, listTemplates, putTemplate } from "../server/services/templates";
import { getSetting, setSetting, SETTING_KEYS } from "../server/services/settings";
import { echoTemplate } from "./helpers/node";
import { V1_SPIGOT } from "../core/definition/v1-test-fixture";

let panel: TestPanel;
beforeEach(async () => {
  panel = await testPanel();
});

/** A repository that answers its index with an HTML page, not JSON. */
let junk: ReturnType<typeof Bun.serve>;
let junkUrl: string;
beforeAll(() => {
  junk = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("<html>surely not an index</html>", { headers: { "content-type": "text/html" } }) });
  junkUrl = `http://127.0.0.1:${junk.port}/repo`;
});
afterAll(() => junk.stop(true));

const post = (token: string, body: URLSearchParams) => ({
  method: "POST",
  token,
  headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html", origin: "http://localhost" },
  body: body.toString(),
});
const get = async (path: string, token: string) => panel.request(path, { token, headers: HTML });
const editor = () => loginAs(panel.db, [SCOPES.templatesView, SCOPES.templatesEdit]);
const viewer = () => loginAs(panel.db, [SCOPES.templatesView]);
const storedIds = async () => (await listTemplates(panel.db)).map((t) => t.id).sort();
/** The template as stored, without the id and name the service adds. */
const storedBody = async (id: string) => (await panel.db.select().from(schema.templates).all()).find((r) => r.id === id)?.definition as Record<string, unknown> | undefined;

/** What React escapes in text: the textarea holds `text` written like this. */
const escaped = (text: string) => text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;").replaceAll("'", "&#x27;");
/** The JSON text of the (script-free) editor form's textarea. */
function textareaOf(html: string): string {
  const raw = /<textarea[^>]*name="template"[^>]*>([\s\S]*?)<\/textarea>/.exec(html)?.[1];
  if (raw === undefined) throw new Error("no template textarea in the page");
  return raw.replaceAll("&quot;", '"').replaceAll("&#x27;", "'").replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&amp;", "&").replace(/^\n/, "");
}

/** Follows a redirect the way a browser does, carrying the flash cookie it set. */
async function follow(res: Response, token: string): Promise<string> {
  const flash = /kiln_flash=([^;]+)/.exec(res.headers.get("set-cookie") ?? "")?.[1];
  const next = await panel.request(res.headers.get("location")!, { token, headers: { ...HTML, cookie: flash ? `kiln_flash=${flash}` : "" } });
  expect(next.status).toBe(200);
  return next.text();
}

describe("template list", () => {
  test("lists each template's display name (a link), id and type; Import and Add only for templates.edit", async () => {
    await putTemplate(panel.db, "echo", echoTemplate());
    await putTemplate(panel.db, "valheim", SHIPPED_TEMPLATE_SOURCES.valheim);
    const { token } = await viewer();
    const res = await get("/template", token);
    expect(res.status).toBe(200);
    const html = await res.text();
    const row = (id: string) => new RegExp(`<tr data-template="${id}">(.*?)</tr>`).exec(html)?.[1] ?? "";
    expect(row("echo")).toContain('<a href="/template/echo"><span class="shown-label" dir="auto">Echo test</span></a>');
    expect(row("echo")).toContain("<code>echo</code>");
    expect(row("echo")).toContain('<td><span class="shown-label" dir="ltr">other</span></td>');
    expect(row("valheim")).toContain('<a href="/template/valheim"><span class="shown-label" dir="auto">Valheim dedicated server</span></a>');
    expect(row("valheim")).toContain('<td><span class="shown-label" dir="ltr">valheim</span></td>');
    expect(html).not.toContain('href="/addtemplate"');
    expect(html).not.toContain('href="/template?import=1');
    // asking for the dialog without templates.edit gets the list only
    const asked = await (await get("/template?import=1", token)).text();
    expect(asked).not.toContain('id="import"');
    expect(asked).not.toContain("/template/import/");

    const edit = await editor();
    const page = await (await get("/template", edit.token)).text();
    expect(page).toContain('href="/addtemplate"');
    expect(page).toContain('href="/template?import=1#import"');
    expect(page).not.toContain('id="import"');
    // admin passes the scope checks too
    const admin = await loginAs(panel.db, [SCOPES.admin]);
    expect(await (await get("/template", admin.token)).text()).toContain('href="/addtemplate"');
  });

  test("an empty list says so", async () => {
    const { token } = await viewer();
    expect(await (await get("/template", token)).text()).toContain("No templates yet");
  });

  test("without templates.view every screen is refused with the catalogue message; without a session, the login", async () => {
    await putTemplate(panel.db, "echo", echoTemplate());
    const none = await loginAs(panel.db, [SCOPES.serversView]);
    for (const path of ["/template", "/template?import=1", "/template/echo", "/addtemplate"]) {
      const res = await get(path, none.token);
      expect(res.status).toBe(403);
      expect(await res.text()).toContain("You are not authorised to perform this action");
    }
    const anonymous = await panel.request("/template", { headers: HTML });
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("location")).toStartWith("/auth/login");
  });
});

describe("import dialog", () => {
  test("?import opens it with every library template, its readme as markdown, and Replace for one already stored", async () => {
    await putTemplate(panel.db, "valheim", SHIPPED_TEMPLATE_SOURCES.valheim);
    const { token } = await editor();
    const res = await get("/template?import=1", token);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('id="import"');
    expect(html).toContain("Import templates");
    expect(html).toContain("Kiln library");
    // each offer runs from its marker to the next one (its readme has lists of its own)
    const offer = (id: string) => html.split(/(?=<li class="template-offer")/).find((part) => part.includes(`data-offer="${id}"`))?.split("</div></li>")[0] ?? "";
    const names = Object.keys(SHIPPED_TEMPLATE_SOURCES);
    expect(names.length).toBeGreaterThanOrEqual(5);
    for (const name of names) {
      const entry = offer(name);
      expect(entry).toContain(`<code class="small">${name}</code>`);
      expect(entry).toContain(`action="/template/import/${name}"`);
      expect(entry).toContain('name="repository" value="kiln"');
      const readme = (SHIPPED_TEMPLATE_SOURCES[name] as { readme?: string }).readme ?? "";
      // **bold** in a readme is a <strong>, not the asterisks
      const bold = /\*\*([\w .,:;!?()'/-]+)\*\*/.exec(readme)?.[1];
      if (bold) {
        expect(entry).toContain(`<strong>${escaped(bold)}</strong>`);
        expect(entry).not.toContain(`**${escaped(bold)}**`);
      }
      // valheim was stored by hand, not from the library: replacing it is a choice beside a free id.
      expect(entry).toContain(name === "valheim" ? ">Replace</button>" : ">Import</button>");
      if (name === "valheim") expect(entry).toContain(">Import as valheim-kiln</button>");
      expect(entry).not.toContain(name === "valheim" ? ">Import</button>" : ">Replace</button>");
    }
    // the readme's heading and links are rendered too
    const valheim = offer("valheim");
    expect(valheim).toContain('class="md template-readme"');
    expect(valheim).toContain("<h3>Valheim dedicated server</h3>");
    const vanilla = offer("minecraft-vanilla");
    expect(vanilla).toContain('<a href="https://aka.ms/MinecraftEULA" rel="noopener noreferrer nofollow" target="_blank">');
  });

  test("a repository from the settings that answers junk shows its error, and the library is still listed", async () => {
    await setSetting(panel.db, SETTING_KEYS.templateRepositories, junkUrl);
    const { token } = await editor();
    const res = await get("/template?import=1", token);
    expect(res.status).toBe(200);
    const html = await res.text();
    const section = new RegExp(`<section[^>]*data-repository="${junkUrl.replaceAll(".", "\\.")}"[^>]*>([\\s\\S]*?)</section>`).exec(html)?.[1] ?? "";
    expect(section).toContain(`<h3 dir="auto">${junkUrl}<!-- --> <span class="small muted template-repo-count">0 templates</span></h3>`);
    expect(section).toContain("alert");
    expect(section).not.toContain("data-offer");
    for (const name of ["minecraft-vanilla", "minecraft-fabric", "valheim", "nodejs-app", "python-app"]) expect(html).toContain(`data-offer="${name}"`);
    // the catalogue's message (translated like every other error on the page), not the log text
    expect(section).toContain(`The template repository ${junkUrl} failed: answer is not JSON`);
  });
});

describe("importing", () => {
  test("a library template is stored and its screen opens with 'Template imported'", async () => {
    const { token } = await editor();
    const res = await panel.request("/template/import/valheim", post(token, new URLSearchParams({ repository: "kiln" })));
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/template/valheim");
    expect((await getTemplate(panel.db, "valheim")).display).toBe("Valheim dedicated server");
    const html = await follow(res, token);
    expect(html).toContain("Template imported");
    expect(JSON.parse(textareaOf(html)).display).toBe("Valheim dedicated server");
  });

  test("importing over a stored template replaces it", async () => {
    await putTemplate(panel.db, "valheim", { ...echoTemplate(), display: "Not Valheim" });
    const { token } = await editor();
    const res = await panel.request("/template/import/valheim", post(token, new URLSearchParams({ repository: "kiln" })));
    expect(res.status).toBe(303);
    expect((await getTemplate(panel.db, "valheim")).display).toBe("Valheim dedicated server");
  });

  test("an unknown name shows the list with 'No template with the name … found' (404) and stores nothing", async () => {
    const { token } = await editor();
    const res = await panel.request("/template/import/no-such-template", post(token, new URLSearchParams({ repository: "kiln" })));
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(html).toContain("No template with the name no-such-template found");
    // the list and the dialog are shown again, so another can be picked
    expect(html).toContain('id="import"');
    expect(html).toContain('data-offer="valheim"');
    expect(await storedIds()).toEqual([]);
  });

  test("a repository that answers junk: the list again with the catalogue message (502), nothing stored", async () => {
    await setSetting(panel.db, SETTING_KEYS.templateRepositories, junkUrl);
    const { token } = await editor();
    const res = await panel.request("/template/import/anything", post(token, new URLSearchParams({ repository: junkUrl })));
    expect(res.status).toBe(502);
    expect(await res.text()).toContain(`The template repository ${junkUrl} failed: answer is not JSON`);
    expect(await storedIds()).toEqual([]);
  });

  test("needs templates.edit", async () => {
    const { token } = await viewer();
    const res = await panel.request("/template/import/valheim", post(token, new URLSearchParams({ repository: "kiln" })));
    expect(res.status).toBe(403);
    // a refused post answers with the error body, as every page form does (only GETs render pages)
    expect((await res.json()).error.code).toBe("ErrMissingScope");
    expect(await storedIds()).toEqual([]);
  });
});

describe("add template", () => {
  test("the form has a name and the JSON of a new template, and posts to /addtemplate", async () => {
    const { token } = await editor();
    const res = await get("/addtemplate", token);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('action="/addtemplate"');
    expect(html).toContain('name="name"');
    expect(JSON.parse(textareaOf(html))).toMatchObject({ environment: { type: "standard" }, supportedEnvironments: [{ type: "standard" }] });
    expect(html).not.toContain("/delete");
    expect((await get("/addtemplate", (await viewer()).token)).status).toBe(403);
  });

  test("a valid template with a new name is stored and its screen opens", async () => {
    const { token } = await editor();
    const { name: _name, ...template } = echoTemplate();
    const res = await panel.request("/addtemplate", post(token, new URLSearchParams({ name: " my-echo ", template: JSON.stringify({ ...template, display: "Mine" }) })));
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/template/my-echo");
    expect(await getTemplate(panel.db, "my-echo")).toMatchObject({ display: "Mine", run: { stop: "quit" }, data: { greeting: { value: "world" } } });
    const html = await follow(res, token);
    expect(html).toContain("Template saved");
    expect(html).toContain("Mine");
  });

  test("broken JSON is shown again as typed (escaped) with 'The JSON data is invalid' (400), nothing stored", async () => {
    const { token } = await editor();
    const typed = `{"display": "<b>Tom & Jerry's</b>", "run": `;
    const res = await panel.request("/addtemplate", post(token, new URLSearchParams({ name: "broken", template: typed })));
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("The JSON data is invalid");
    expect(html).not.toContain("<b>Tom");
    expect(html).toContain(escaped(typed));
    expect(textareaOf(html)).toBe(typed);
    expect(await storedIds()).toEqual([]);
  });

  test("valid JSON that is not a template is refused with the catalogue message and shown again", async () => {
    const { token } = await editor();
    const res = await panel.request("/addtemplate", post(token, new URLSearchParams({ name: "bad-step", template: JSON.stringify({ display: "Bad", install: [{ type: "teleport" }] }) })));
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("The JSON data is invalid");
    expect(JSON.parse(textareaOf(html))).toEqual({ display: "Bad", install: [{ type: "teleport" }] });
    expect(await storedIds()).toEqual([]);
  });

  test("a name that exists is refused (409) and the stored template is unchanged", async () => {
    await putTemplate(panel.db, "echo", echoTemplate());
    const before = await storedBody("echo");
    const { token } = await editor();
    const res = await panel.request("/addtemplate", post(token, new URLSearchParams({ name: "echo", template: JSON.stringify({ ...echoTemplate(), display: "Overwritten" }) })));
    expect(res.status).toBe(409);
    const html = await res.text();
    expect(html).toContain("exists already");
    expect(html).toContain("A template named echo exists already");
    expect(await storedBody("echo")).toEqual(before!);
    expect((await getTemplate(panel.db, "echo")).display).toBe("Echo test");
  });

  test("a name that is not an id is refused (400) and nothing is stored", async () => {
    const { token } = await editor();
    for (const name of ["a b", "", "../x"]) {
      const res = await panel.request("/addtemplate", post(token, new URLSearchParams({ name, template: JSON.stringify(echoTemplate()) })));
      expect(res.status).toBe(400);
      expect(await res.text()).toContain("must not contain characters that cannot be used in URIs");
    }
    expect(await storedIds()).toEqual([]);
  });

  test("a refused add keeps the name that was typed, as the other forms keep what was typed", async () => {
    await putTemplate(panel.db, "echo", echoTemplate());
    const { token } = await editor();
    const broken = await (await panel.request("/addtemplate", post(token, new URLSearchParams({ name: "my-new", template: "{" })))).text();
    expect(broken).toMatch(/<input[^>]*name="name"[^>]*value="my-new"|<input[^>]*value="my-new"[^>]*name="name"/);
    const taken = await (await panel.request("/addtemplate", post(token, new URLSearchParams({ name: "echo", template: JSON.stringify(echoTemplate()) })))).text();
    expect(taken).toMatch(/<input[^>]*name="name"[^>]*value="echo"|<input[^>]*value="echo"[^>]*name="name"/);
  });

  test("posting needs templates.edit", async () => {
    const { token } = await viewer();
    const res = await panel.request("/addtemplate", post(token, new URLSearchParams({ name: "sneaky", template: JSON.stringify(echoTemplate()) })));
    expect(res.status).toBe(403);
    expect(await storedIds()).toEqual([]);
  });
});

describe("template screen", () => {
  test("shows the stored template as JSON (without its id) in a form posting to the page, with Save and Delete", async () => {
    await putTemplate(panel.db, "echo", echoTemplate());
    const { token } = await editor();
    const res = await get("/template/echo", token);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("<title>");
    expect(html).toContain("Echo test");
    expect(html).toContain('action="/template/echo"');
    expect(html).toContain('data-island="TemplateEditor"');
    expect(html).toContain('data-hydrate="load"');
    const shown = JSON.parse(textareaOf(html));
    expect("id" in shown).toBe(false);
    expect(shown).toEqual((await storedBody("echo"))!);
    expect(html).toMatch(/<button type="submit" class="btn btn-primary">Save<\/button>/);
    expect(html).toContain('action="/template/echo/delete"');
    expect(html).toContain("Delete template");
    // no name field: the id is the URL
    expect(html).not.toContain('name="name"');
  });

  test("saving valid JSON replaces the template and shows 'Template saved'", async () => {
    await putTemplate(panel.db, "echo", echoTemplate());
    const { token } = await editor();
    const changed = { ...echoTemplate(), display: "Echo, edited", run: { ...echoTemplate().run, stop: "bye" } };
    const res = await panel.request("/template/echo", post(token, new URLSearchParams({ template: JSON.stringify(changed) })));
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/template/echo");
    expect(await getTemplate(panel.db, "echo")).toMatchObject({ display: "Echo, edited", run: { stop: "bye" } });
    expect(await listTemplates(panel.db)).toEqual([{ id: "echo", name: "echo", display: "Echo, edited", type: "other", source: "kiln" }]);
    const html = await follow(res, token);
    expect(html).toContain("Template saved");
    expect(JSON.parse(textareaOf(html)).display).toBe("Echo, edited");
  });

  test("a version-1 template is stored converted", async () => {
    await putTemplate(panel.db, "spigot", echoTemplate());
    const { token } = await editor();
    const res = await panel.request("/template/spigot", post(token, new URLSearchParams({ template: JSON.stringify(V1_SPIGOT) })));
    expect(res.status).toBe(303);
    const stored = await getTemplate(panel.db, "spigot");
    expect("pufferd" in stored).toBe(false);
    expect(stored).toMatchObject({ display: "Spigot - Minecraft", type: "java", environment: { type: "standard" }, supportedEnvironments: [{ type: "standard" }] });
    expect(splitCommandLine(stored.run.command as string)).toEqual(["java", "-Xmx${memory}M", "-jar", "server.jar"]);
    expect(stored.install.map((s) => s.type)).toEqual(["download", "command", "move", "writefile"]);
    expect(stored.data.memory).toMatchObject({ value: 1024, type: "integer", display: "Memory (MB)" });
    expect(stored.data.version).toMatchObject({ value: "1.12.2", display: "Version" });
    expect((await listTemplates(panel.db))[0]).toMatchObject({ id: "spigot", display: "Spigot - Minecraft", type: "java" });
  });

  test("broken JSON is shown again as typed with 'The JSON data is invalid' (400); the stored one is kept", async () => {
    await putTemplate(panel.db, "echo", echoTemplate());
    const before = await storedBody("echo");
    const { token } = await editor();
    const typed = `{"display": "Half <i>written</i>",\n  "run": {`;
    const res = await panel.request("/template/echo", post(token, new URLSearchParams({ template: typed })));
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("The JSON data is invalid");
    expect(html).toContain(escaped(typed));
    expect(textareaOf(html)).toBe(typed);
    // the page is still the template's own (title and delete)
    expect(html).toContain('action="/template/echo/delete"');
    expect(await storedBody("echo")).toEqual(before!);
  });

  test("templates.view alone sees the JSON read-only, with no Save and no Delete, and cannot post", async () => {
    await putTemplate(panel.db, "echo", echoTemplate());
    const before = await storedBody("echo");
    const { token } = await viewer();
    const html = await (await get("/template/echo", token)).text();
    expect(JSON.parse(textareaOf(html)).display).toBe("Echo test");
    expect(html).toMatch(/<textarea[^>]*name="template"[^>]*readOnly|<textarea[^>]*readOnly[^>]*name="template"/i);
    const form = /<form[^>]*action="\/template\/echo"[\s\S]*?<\/form>/.exec(html)?.[0] ?? "";
    expect(form).toContain('name="template"');
    expect(form).not.toContain('type="submit"');
    expect(form).not.toContain(">Save<");
    // (the island's message table, sent along in a script, names the delete button: look before it)
    const shown = html.split('<script type="application/json" id="kiln-islands">')[0]!;
    expect(shown).not.toContain("/delete");
    expect(shown).not.toContain("Delete template");
    const res = await panel.request("/template/echo", post(token, new URLSearchParams({ template: JSON.stringify({ ...echoTemplate(), display: "Hacked" }) })));
    expect(res.status).toBe(403);
    expect((await res.json()).error.code).toBe("ErrMissingScope");
    const del = await panel.request("/template/echo/delete", post(token, new URLSearchParams()));
    expect(del.status).toBe(403);
    expect(await storedBody("echo")).toEqual(before!);
  });

  test("delete removes the template and goes back to the list with 'Template deleted'", async () => {
    await putTemplate(panel.db, "echo", echoTemplate());
    await putTemplate(panel.db, "other", { ...echoTemplate(), display: "Other" });
    const { token } = await editor();
    const res = await panel.request("/template/echo/delete", post(token, new URLSearchParams()));
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/template");
    expect(await storedIds()).toEqual(["other"]);
    const html = await follow(res, token);
    expect(html).toContain("Template deleted");
    expect(html).not.toContain('data-template="echo"');
    expect(html).toContain('data-template="other"');
  });

  test("an unknown id is the not-found page with the catalogue message", async () => {
    const { token } = await editor();
    const res = await get("/template/nowhere", token);
    expect(res.status).toBe(404);
    expect(await res.text()).toContain("No template with the name nowhere found");
    const del = await panel.request("/template/nowhere/delete", post(token, new URLSearchParams()));
    // posts answer with the error body (only GETs render the error page)
    expect(del.status).toBe(404);
    expect(await del.json()).toMatchObject({ error: { code: "ErrNoTemplate", metadata: { name: "nowhere" } } });
    const broken = await panel.request("/template/nowhere", post(token, new URLSearchParams({ template: "{" })));
    expect(broken.status).toBe(404);
    expect((await broken.json()).error.code).toBe("ErrNoTemplate");
    expect(await storedIds()).toEqual([]);
  });
});

describe("template repositories setting", () => {
  const settingsPost = (token: string, value: string) => panel.request("/settings/general", post(token, new URLSearchParams({ [SETTING_KEYS.templateRepositories]: value })));

  // Where templates come from is an administrator's setting (test/security/settings-changes.test.ts).
  test("the General tab shows the textarea; saving stores the URLs trimmed, one per line", async () => {
    const { token } = await loginAs(panel.db, [SCOPES.admin]);
    const page = await (await get("/settings", token)).text();
    expect(page).toContain("Template repositories");
    expect(page).toMatch(/<textarea[^>]*name="panel\.templates\.repositories"/);

    const res = await settingsPost(token, `  https://templates.example.com/kiln/  \r\n\r\n   http://10.0.0.5:8080/repo \n`);
    expect(res.status).toBe(303);
    expect(await getSetting(panel.db, SETTING_KEYS.templateRepositories)).toBe("https://templates.example.com/kiln\nhttp://10.0.0.5:8080/repo");
    const after = await (await get("/settings", token)).text();
    expect(after).toMatch(/<textarea[^>]*name="panel\.templates\.repositories"[^>]*>\n?https:\/\/templates\.example\.com\/kiln\nhttp:\/\/10\.0\.0\.5:8080\/repo<\/textarea>/);
  });

  test("an ftp:// URL is refused with the form's error and nothing changes", async () => {
    const { token } = await loginAs(panel.db, [SCOPES.admin]);
    await setSetting(panel.db, SETTING_KEYS.templateRepositories, "https://kept.example.com");
    const res = await settingsPost(token, "https://fine.example.com\nftp://files.example.com/templates");
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("must be a valid IP or FQDN");
    expect(html).toContain("alert");
    expect(await getSetting(panel.db, SETTING_KEYS.templateRepositories)).toBe("https://kept.example.com");
  });
});

// The Users and Settings screens' forms, as a browser without script would post them.
import { beforeEach, describe, expect, test } from "bun:test";
import { testPanel, loginAs, HTML, type TestPanel } from "./helpers/app";
import { createUser, scopesOf } from "../server/services/users";
import { getSetting } from "../server/services/settings";
import { SCOPES } from "../core/scopes";

let panel: TestPanel;
beforeEach(async () => {
  panel = await testPanel();
});

const post = (token: string, body: URLSearchParams) => ({
  method: "POST",
  token,
  headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html", origin: "http://localhost" },
  body: body.toString(),
});

describe("users screens", () => {
  test("the list needs users.view; add and edit need users.edit", async () => {
    const none = await loginAs(panel.db, []);
    const list = await panel.request("/user", { headers: HTML, token: none.token });
    expect(list.status).toBe(403);
    expect(await list.text()).toContain("You are not authorised to perform this action");
    const viewer = await loginAs(panel.db, [SCOPES.usersView]);
    expect((await panel.request("/user", { headers: HTML, token: viewer.token })).status).toBe(200);
    expect((await panel.request("/adduser", { headers: HTML, token: viewer.token })).status).toBe(403);
    expect(await (await panel.request("/user", { headers: HTML, token: viewer.token })).text()).not.toContain('href="/adduser"');
  });

  test("add user without an email says an email is needed; without a password it invites", async () => {
    const { token } = await loginAs(panel.db, [SCOPES.admin]);
    const noEmail = await panel.request("/adduser", post(token, new URLSearchParams({ email: "", username: "x", password: "" })));
    expect(await noEmail.text()).toContain("You must provide the email of the user you want to add");
    const invited = await panel.request("/adduser", post(token, new URLSearchParams({ email: "guest@example.com", username: "", password: "" })));
    const html = await invited.text();
    expect(html).toContain("Invitation created");
    expect(html).toMatch(/\/auth\/invite\?token=[\w-]+/);
  });

  test("create, then grant permissions with checkboxes", async () => {
    const { token } = await loginAs(panel.db, [SCOPES.admin]);
    const created = await panel.request("/adduser", post(token, new URLSearchParams({ email: "made@example.com", username: "madeuser", password: "password123" })));
    expect(created.status).toBe(303);
    const id = Number(created.headers.get("location")!.split("/").pop());
    const form = new URLSearchParams();
    form.append("scopes", SCOPES.serversView);
    form.append("scopes", SCOPES.templatesView);
    const saved = await panel.request(`/user/${id}/perms`, post(token, form));
    expect(saved.status).toBe(303);
    expect(await scopesOf(panel.db, id)).toEqual([SCOPES.serversView, SCOPES.templatesView]);
  });

  test("a permission the editor lacks is refused in the page", async () => {
    const editor = await loginAs(panel.db, [SCOPES.usersView, SCOPES.usersEdit]);
    const target = await createUser(panel.db, { username: "target3", email: "t3@example.com", password: "password123" });
    const res = await panel.request(`/user/${target.id}/perms`, post(editor.token, new URLSearchParams({ scopes: SCOPES.settingsEdit })));
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("You are not authorised to perform this action");
    expect(await scopesOf(panel.db, target.id)).toEqual([]);
  });
});

describe("settings screen", () => {
  test("general settings save; an invalid value shows its error and changes nothing", async () => {
    const { token } = await loginAs(panel.db, [SCOPES.admin]);
    const form = new URLSearchParams({ "panel.settings.masterUrl": "https://panel.example.com/", "panel.settings.companyName": "Acme", "panel.settings.defaultTheme": "forest" });
    form.append("panel.registrationEnabled", "false");
    form.append("panel.registrationEnabled", "true");
    expect((await panel.request("/settings/general", post(token, form))).status).toBe(303);
    expect(await getSetting(panel.db, "panel.settings.masterUrl")).toBe("https://panel.example.com");
    expect(await getSetting(panel.db, "panel.registrationEnabled")).toBe("true");
    expect(await getSetting(panel.db, "panel.settings.defaultTheme")).toBe("forest");
    const bad = await panel.request("/settings/general", post(token, new URLSearchParams({ "panel.settings.masterUrl": "not a url", "panel.settings.companyName": "Changed" })));
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("must be a valid IP or FQDN");
    expect(await getSetting(panel.db, "panel.settings.companyName")).toBe("Acme");
  });

  test("an empty secret field keeps the stored secret", async () => {
    const { token } = await loginAs(panel.db, [SCOPES.admin]);
    await panel.request("/settings/email", post(token, new URLSearchParams({ "panel.email.provider": "smtp", "panel.email.password": "first" })));
    await panel.request("/settings/email", post(token, new URLSearchParams({ "panel.email.provider": "smtp", "panel.email.password": "" })));
    expect(await getSetting(panel.db, "panel.email.password")).toBe("first");
    const page = await (await panel.request("/settings?tab=email", { headers: HTML, token })).text();
    expect(page).not.toContain("first");
    expect(page).toContain("Set; leave empty to keep");
  });

  test("a test email with no provider says email is not configured", async () => {
    const { token } = await loginAs(panel.db, [SCOPES.admin]);
    const res = await panel.request("/settings/email/test", post(token, new URLSearchParams()));
    expect(await res.text()).toContain("Email is not configured");
  });
});

describe("API documentation", () => {
  test("the OpenAPI document lists the calls with their body schemas", async () => {
    const doc = await (await panel.request("/api/openapi.json")).json();
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.paths["/api/users"].post.requestBody.content["application/json"].schema.properties).toHaveProperty("email");
    expect(doc.paths["/auth/login"].post["x-kiln-needs"]).toBe("public");
    expect(doc.paths["/api/users/{id}/perms"].put["x-kiln-needs"]).toBe(SCOPES.usersEdit);
    expect(await (await panel.request("/api/docs", { headers: HTML })).text()).toContain("/oauth2/token");
  });
});

// /api/templates: list, read, create or replace, delete; invalid JSON; scopes; first-start seeding.
import { beforeEach, describe, expect, test } from "bun:test";
import { testPanel, loginAs, type TestPanel } from "./helpers/app";
import { SCOPES } from "../core/scopes";
import { seedTemplates } from "../server/services/templates";
import { echoTemplate } from "./helpers/node";

let panel: TestPanel;
beforeEach(async () => {
  panel = await testPanel();
});

const put = (body: string | object) => ({ method: "PUT", headers: { "content-type": "application/json" }, body: typeof body === "string" ? body : JSON.stringify(body) });
const errorOf = async (res: Response) => ({ status: res.status, code: (await res.json()).error?.code });

describe("templates API", () => {
  test("put, list, get and delete a template; steps are normalised by the shared schema", async () => {
    const { token } = await loginAs(panel.db, [SCOPES.templatesView, SCOPES.templatesEdit]);
    const saved = await panel.request("/api/templates/echo", { token, ...put({ ...echoTemplate(), install: [{ type: "download", files: "http://x/a.jar" }] }) });
    expect(saved.status).toBe(200);
    expect((await saved.json()).install).toEqual([{ type: "download", files: ["http://x/a.jar"] }]);
    expect(await (await panel.request("/api/templates", { token })).json()).toEqual([{ id: "echo", name: "echo", display: "Echo test", type: "other", source: "kiln" }]);
    const one = await (await panel.request("/api/templates/echo", { token })).json();
    expect(one).toMatchObject({ id: "echo", name: "echo", run: { stop: "quit" }, data: { greeting: { value: "world" } } });
    expect((await panel.request("/api/templates/echo", { token, method: "DELETE" })).status).toBe(204);
    expect(await errorOf(await panel.request("/api/templates/echo", { token }))).toEqual({ status: 404, code: "ErrNoTemplate" });
  });

  test("invalid JSON answers ErrInvalidJson, an invalid template ErrTemplateFieldInvalid naming the field; nothing is stored", async () => {
    const { token } = await loginAs(panel.db, [SCOPES.templatesView, SCOPES.templatesEdit]);
    expect(await errorOf(await panel.request("/api/templates/bad", { token, ...put("{ not json") }))).toEqual({ status: 400, code: "ErrInvalidJson" });
    // A template the schema refuses names the field and what would be accepted there.
    const refused = await panel.request("/api/templates/bad", { token, ...put({ install: [{ type: "teleport" }] }) });
    expect(refused.status).toBe(400);
    const { error } = await refused.json();
    expect(error.code).toBe("ErrTemplateFieldInvalid");
    expect(error.metadata.field).toBe("install.0.type");
    expect(error.metadata.expected).toContain("expected a step type: one of download, command");
    expect(await errorOf(await panel.request("/api/templates/a%2Fb", { token, ...put(echoTemplate()) }))).toEqual({ status: 400, code: "ErrFieldHasURICharacters" });
    expect(await (await panel.request("/api/templates", { token })).json()).toEqual([]);
  });

  test("scopes: view to read, edit to write", async () => {
    const viewer = await loginAs(panel.db, [SCOPES.templatesView]);
    const nobody = await loginAs(panel.db, []);
    expect(await errorOf(await panel.request("/api/templates", { token: nobody.token }))).toEqual({ status: 403, code: "ErrMissingScope" });
    expect(await errorOf(await panel.request("/api/templates/x", { token: nobody.token }))).toEqual({ status: 403, code: "ErrMissingScope" });
    expect(await errorOf(await panel.request("/api/templates/x", { token: viewer.token, ...put(echoTemplate()) }))).toEqual({ status: 403, code: "ErrMissingScope" });
    expect(await errorOf(await panel.request("/api/templates/x", { token: viewer.token, method: "DELETE" }))).toEqual({ status: 403, code: "ErrMissingScope" });
  });

  test("the shipped templates are added on the first start only", async () => {
    const { SHIPPED_TEMPLATES } = await import("../templates");
    expect(await seedTemplates(panel.db, SHIPPED_TEMPLATES)).toBe(SHIPPED_TEMPLATES.length);
    const { token } = await loginAs(panel.db, [SCOPES.templatesView, SCOPES.templatesEdit]);
    const ids = (await (await panel.request("/api/templates", { token })).json()).map((t: { id: string }) => t.id);
    expect(ids).toContain("minecraft-vanilla");
    await panel.request("/api/templates/minecraft-vanilla", { token, method: "DELETE" });
    expect(await seedTemplates(panel.db, SHIPPED_TEMPLATES)).toBe(0);
  });
});

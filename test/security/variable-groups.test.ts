// Attack: variable groups' `if` at creation as a way around the creation rules. A
// non-administrator with servers.create hides a group to slip a fixed variable in or to leave
// required ones empty where the condition holds, writes values that try to break out of the
// condition (quotes, $(…), CEL operators), sends wrong types and oversized values for the
// variables conditions read, and posts the no-script form the same way. Each is refused with a
// catalogue error and creates nothing, or is read as plain data.
import { beforeAll, describe, expect, test } from "bun:test";
import { SCOPES } from "../../core/scopes";
import { putTemplate } from "../../server/services/templates";
import { loginAs } from "../helpers/app";
import { formInit, jsonInit, panelForAll, type PanelWithNode } from "../helpers/panel-node";

let ctx: PanelWithNode;
let creator: { token: string; email: string };

panelForAll((fresh) => (ctx = fresh));
beforeAll(async () => {
  await putTemplate(ctx.panel.db, "guarded", {
    display: "Guarded",
    run: { command: "sh -c 'echo ${mode}'" },
    environment: { type: "standard" },
    supportedEnvironments: [{ type: "standard" }],
    data: {
      mode: { type: "string", value: "safe", required: true, userEdit: true },
      size: { type: "integer", value: 1, required: true, userEdit: true },
      secret: { type: "string", value: "template's", required: true, userEdit: false },
      token: { type: "string", value: "", required: true, userEdit: true },
    },
    groups: [
      { display: "Main", variables: ["mode", "size"], order: 1 },
      { if: "mode == 'expert'", display: "Expert", variables: ["secret", "token"], order: 2 },
    ],
  } as never);
  creator = await loginAs(ctx.panel.db, [SCOPES.serversCreate]);
});

const rows = async () => (await ctx.panel.db.$kiln.raw("SELECT COUNT(*) AS n FROM servers"))[0] as { n: number };
const create = (token: string, variables: Record<string, unknown>) =>
  ctx.panel.request("/api/servers", { token, ...jsonInit("POST", { name: `vg-${Math.random().toString(36).slice(2, 7)}`, node: ctx.nodeId, template: "guarded", environment: { type: "standard" }, variables }) });

async function refused(response: Response, code: string, field: string): Promise<void> {
  expect(response.status).toBeGreaterThanOrEqual(400);
  expect(response.status).toBeLessThan(500);
  const { error } = await response.json();
  expect(error.code).toBe(code);
  expect(JSON.stringify(error.metadata)).toContain(field);
}

describe("a non-administrator creating from a template with conditional groups", () => {
  test("a fixed variable stays fixed whether its group is hidden or shown", async () => {
    const before = (await rows()).n;
    await refused(await create(creator.token, { mode: "safe", secret: "mine" }), "ErrNoPermission", "variables.secret");
    await refused(await create(creator.token, { mode: "expert", secret: "mine", token: "t" }), "ErrNoPermission", "variables.secret");
    expect((await rows()).n).toBe(before);
  });

  test("a required variable is required wherever its group shows; hiding it needs the value the template asks for", async () => {
    const before = (await rows()).n;
    await refused(await create(creator.token, { mode: "expert", token: "" }), "ErrFieldRequired", "token");
    expect((await rows()).n).toBe(before);
    const ok = await create(creator.token, { mode: "safe" });
    expect(ok.status).toBe(201);
    const stored = await ctx.node.json("GET", `/daemon/server/${(await ok.json()).id}`);
    expect(stored.data.secret.value).toBe("template's");
  });

  test("values cannot break out of a condition: quotes, $(…) and CEL operators are data", async () => {
    const before = (await rows()).n;
    for (const mode of ["expert' || true || '", "x\" || true || \"", "$(id)", "expert\u0000", "expert' + '"]) {
      const res = await create(creator.token, { mode, token: "" });
      // The Expert group stays hidden (mode is not exactly 'expert'), so token may stay empty;
      // a value with a control character is refused outright.
      if (mode.includes("\u0000")) await refused(res, "ErrFieldHasControlCharacters", "mode");
      else {
        expect(res.status).toBe(201);
        expect((await ctx.node.json("GET", `/daemon/server/${(await res.json()).id}`)).data.mode.value).toBe(mode);
      }
    }
    expect((await rows()).n).toBe(before + 4);
  });

  test("wrong types and oversized values for what conditions read are refused", async () => {
    const before = (await rows()).n;
    await refused(await create(creator.token, { size: "1e999" }), "ErrFieldNotInteger", "size");
    // The creation schema takes only text, numbers and true/false as values.
    const object = await create(creator.token, { size: { valueOf: 5 } });
    expect(object.status).toBe(400);
    expect(JSON.stringify((await object.json()).error.metadata)).toContain("variables.size");
    await refused(await create(creator.token, { mode: "e".repeat(100_000) }), "ErrFieldTooLarge", "mode");
    expect((await rows()).n).toBe(before);
  });

  test("the no-script form follows the same rules", async () => {
    const before = (await rows()).n;
    const form = (fields: Record<string, string>) => ctx.panel.request("/addserver?template=guarded", { token: creator.token, ...formInit({ name: "vg form", node: String(ctx.nodeId), template: "guarded", environment: "standard", user: creator.email, ...fields }) });
    expect((await form({ "var.mode": "expert", "var.size": "1", "var.token": "" })).status).toBe(400);
    expect((await form({ "var.mode": "safe", "var.size": "1", "var.secret": "mine" })).status).toBe(403);
    expect((await rows()).n).toBe(before);
  });
});

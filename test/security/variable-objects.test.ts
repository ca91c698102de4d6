// Attack: POST …/data with each variable whole (PufferPanel 2's and puffMob's shape)
// as a way around the variable rules. A user holding only editServerData sends a fixed variable
// as an object, flips its flags or display beside a value, hides keys in `__proto__`, sends
// values with line breaks, quotes and $(…), or a huge one; and PufferPanel's daemon root through
// the proxy without a session. Each is refused with a catalogue error and changes nothing.
import { beforeAll, describe, expect, test } from "bun:test";
import { putTemplate } from "../../server/services/templates";
import { echoTemplate } from "../helpers/node";
import { jsonInit, panelForAll, type PanelWithNode } from "../helpers/panel-node";

let ctx: PanelWithNode;
let id = "";
let editor: { token: string };

panelForAll((fresh) => (ctx = fresh));
beforeAll(async () => {
  const template = echoTemplate();
  template.data = { ...template.data, secret: { display: "Secret", desc: "", type: "string", value: "kept", required: true, userEdit: false } };
  await putTemplate(ctx.panel.db, "fixed", template);
  id = await ctx.createServer("objects", { template: "fixed" });
  editor = await ctx.userWith(id, { editServerData: true });
});

const post = (token: string, body: string) => ctx.panel.request(`/proxy/daemon/server/${id}/data`, { token, method: "POST", headers: { "content-type": "application/json" }, body });
const stored = async () => (await ctx.node.json("GET", `/daemon/server/${id}`)).data as Record<string, Record<string, unknown>>;

async function refused(response: Response, code: string, field?: string): Promise<void> {
  expect(response.status).toBeGreaterThanOrEqual(400);
  expect(response.status).toBeLessThan(500);
  const { error } = await response.json();
  expect(error.code).toBe(code);
  if (field) expect(Object.values(error.metadata ?? {})).toContain(field);
  expect(JSON.stringify(error)).not.toMatch(/\/tmp\/|\bat .*\.ts:\d+/);
}

describe("each variable whole, from a user with only editServerData", () => {
  test("a fixed variable as an object is refused, whatever its flags claim", async () => {
    const before = await stored();
    await refused(await post(editor.token, JSON.stringify({ data: { secret: { value: "mine", userEdit: true } } })), "ErrNoPermission", "secret");
    await refused(await post(editor.token, JSON.stringify({ data: { secret: { type: "string", display: "Secret", required: true, userEdit: false, value: "mine" } } })), "ErrNoPermission", "secret");
    expect(await stored()).toEqual(before);
  });

  test("flags, type, display or options beside a value are refused, not dropped", async () => {
    const before = await stored();
    for (const [key, value] of [["userEdit", false], ["required", false], ["type", "integer"], ["display", "Pwned"], ["options", [{ value: "a" }]]] as const) {
      await refused(await post(editor.token, JSON.stringify({ data: { greeting: { [key]: value, value: "changed" } } })), "ErrFieldNotEqual", `data.greeting.${key}`);
    }
    expect(await stored()).toEqual(before);
  });

  test("keys that are no variable field, __proto__ and constructor included, are refused", async () => {
    const before = await stored();
    await refused(await post(editor.token, '{"data":{"greeting":{"__proto__":{"userEdit":true},"value":"x"}}}'), "ErrUnknownField", "data.greeting.__proto__");
    await refused(await post(editor.token, '{"data":{"greeting":{"constructor":{"prototype":{}},"value":"x"}}}'), "ErrUnknownField", "data.greeting.constructor");
    await refused(await post(editor.token, JSON.stringify({ data: { greeting: { value: "x", script: "$(reboot)" } } })), "ErrUnknownField", "data.greeting.script");
    expect(await stored()).toEqual(before);
  });

  test("values keep the value rules: line breaks and oversized text refused, quotes and $(…) kept as text", async () => {
    const before = await stored();
    await refused(await post(editor.token, JSON.stringify({ data: { greeting: { value: "a\nrm -rf /" } } })), "ErrFieldHasControlCharacters", "greeting");
    await refused(await post(editor.token, JSON.stringify({ data: { greeting: { value: "x".repeat(100_000) } } })), "ErrFieldTooLarge", "greeting");
    await refused(await post(editor.token, JSON.stringify({ data: { greeting: { value: { nested: true } } } })), "ErrInvalidJson", "greeting");
    expect(await stored()).toEqual(before);
    const hostile = `it's "$(id)" \`id\``;
    expect((await post(editor.token, JSON.stringify({ data: { greeting: { value: hostile } } }))).status).toBe(204);
    expect((await stored()).greeting!.value).toBe(hostile);
  });

  test("another user's server is not reachable in either shape", async () => {
    const other = await ctx.createServer("not-theirs");
    const res = await ctx.panel.request(`/proxy/daemon/server/${other}/data`, { token: editor.token, ...jsonInit("POST", { data: { greeting: { value: "x" } } }) });
    expect(res.status).toBe(403);
    expect((await ctx.node.json("GET", `/daemon/server/${other}`)).data.greeting.value).toBe("world");
  });
});

describe("PufferPanel's daemon root through the proxy", () => {
  test("needs a session; answers only its fixed message", async () => {
    expect((await ctx.panel.request("/proxy/daemon/")).status).toBe(401);
    const res = await ctx.panel.request("/proxy/daemon/", { token: editor.token });
    expect(await res.json()).toEqual({ message: "daemon is running" });
    expect((await ctx.panel.request("/proxy/daemon", { token: editor.token, method: "HEAD" })).status).toBe(204);
    expect((await ctx.panel.request("/proxy/daemon/", { token: editor.token, method: "POST" })).status).toBe(404);
  });
});

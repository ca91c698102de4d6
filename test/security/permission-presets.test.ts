// Attacks through the permission presets of the server users form: a manager applying
// a preset beyond their own flags (to a new person, to an existing one, or to take flags away
// from someone who holds more), an unknown or crafted preset name, and a preset mixed with
// switches. Each is refused with a catalogue error and changes nothing; the form disables what
// the manager cannot apply, and a preset within their flags works without script.
import { describe, expect, test } from "bun:test";
import { loginAs } from "../helpers/app";
import { panelPerTest, formInit, jsonInit, type PanelWithNode } from "../helpers/panel-node";
import { refusals } from "../helpers/refusal";
import { PERMISSION_PRESETS } from "../../core/scopes/presets";

let ctx: PanelWithNode;
panelPerTest((fresh) => {
  ctx = fresh;
});

async function snapshot() {
  const q = async (sql: string) => (await ctx.panel.db.$kiln.raw(sql));
  return { users: await q("select id, email, status from users order by id"), serverUsers: await q("select server_id, user_id, flags from server_users order by server_id, user_id") };
}
const { refused, refusedForm } = refusals(snapshot);
const post = (path: string, fields: Record<string, string>, token: string) => ctx.panel.request(path, { ...formInit(fields), token });

/** A server owned by a plain user (every flag) and a manager holding the operator's flags and editServerUsers. */
async function sharedServer() {
  const owner = await loginAs(ctx.panel.db, []);
  const id = await ctx.createServer("Preset", { user: owner.email });
  const manager = await ctx.userWith(id, { ...Object.fromEntries(PERMISSION_PRESETS.operator.map((f) => [f, true])), editServerUsers: true });
  return { id, owner, manager };
}

const NO_PERMISSION = "You do not have permission to perform this action";
const flagsOf = async (serverId: string, userId: number) => ((await ctx.panel.db.$kiln.raw("select flags from server_users where server_id = ? and user_id = ?", [serverId, userId]))[0] as { flags: string } | null)?.flags;

describe("presets stay within what the grantor holds", () => {
  test("co-owner is refused to a new person and to an existing one; viewer cannot strip the owner", async () => {
    const { id, owner, manager } = await sharedServer();
    const friend = await loginAs(ctx.panel.db, []);
    await refusedForm(() => post(`/server/${id}/users`, { email: friend.email, preset: "coOwner" }, manager.token), 403, NO_PERMISSION);
    await refusedForm(() => post(`/server/${id}/users/${encodeURIComponent(manager.email)}`, { preset: "coOwner" }, manager.token), 403, NO_PERMISSION);
    // Viewer would take deleteServer, editServerData and more from the owner: flags the manager lacks.
    await refusedForm(() => post(`/server/${id}/users/${encodeURIComponent(owner.email)}`, { preset: "viewer" }, manager.token), 403, NO_PERMISSION);
  });

  test("a preset cannot be smuggled past with switches, and unknown names are refused", async () => {
    const { id, manager } = await sharedServer();
    const friend = await loginAs(ctx.panel.db, []);
    const path = `/server/${id}/users`;
    // The switches sent beside a preset do not count: the preset's flags replace them.
    await refusedForm(() => post(path, { email: friend.email, preset: "coOwner", deleteServer: "false", editServerData: "false" }, manager.token), 403, NO_PERMISSION);
    for (const preset of ["admin", "__proto__", "constructor", "viewer'; --", "$(id)", "viewer\noperator", "x".repeat(5000)]) {
      await refusedForm(() => post(path, { email: friend.email, preset }, manager.token), 400, "preset is not accepted here");
    }
  });

  test("the form disables what the manager cannot apply; a preset within their flags works without script", async () => {
    const { id, owner, manager } = await sharedServer();
    const { html } = await ctx.page(`/server/${id}?tab=users`, manager.token);
    const addForm = html.slice(html.indexOf('data-testid="add-server-user"'));
    const button = (preset: string, where: string) => new RegExp(`<button[^>]*value="${preset}"[^>]*>`).exec(where)![0];
    expect(button("viewer", addForm)).not.toContain("disabled");
    expect(button("operator", addForm)).not.toContain("disabled");
    expect(button("coOwner", addForm)).toContain("disabled");
    // On the owner's card every preset would take something away the manager lacks.
    const ownerCard = html.slice(html.indexOf(`action="/server/${id}/users/${encodeURIComponent(owner.email)}"`));
    for (const preset of ["viewer", "operator", "coOwner"]) expect(button(preset, ownerCard)).toContain("disabled");

    const friend = await loginAs(ctx.panel.db, []);
    const res = await post(`/server/${id}/users`, { email: friend.email, preset: "operator", deleteServer: "true" }, manager.token);
    expect(res.status).toBe(303);
    expect(JSON.parse((await flagsOf(id, friend.userId))!).sort()).toEqual([...PERMISSION_PRESETS.operator].sort());
    expect((await post(`/server/${id}/users/${encodeURIComponent(friend.email)}`, { preset: "viewer" }, manager.token)).status).toBe(303);
    expect(JSON.parse((await flagsOf(id, friend.userId))!).sort()).toEqual([...PERMISSION_PRESETS.viewer].sort());
  });

  test("the API takes a preset the same way, and refuses it the same way", async () => {
    const { id, owner, manager } = await sharedServer();
    const friend = await loginAs(ctx.panel.db, []);
    const put = (email: string, body: unknown) => ctx.panel.request(`/api/servers/${id}/user/${encodeURIComponent(email)}`, { token: manager.token, ...jsonInit("PUT", body) });
    await refused(() => put(friend.email, { preset: "coOwner" }), { status: 403, code: "ErrNoPermission" });
    await refused(() => put(owner.email, { preset: "viewer" }), { status: 403, code: "ErrNoPermission" });
    await refused(() => put(friend.email, { preset: "root" }), { status: 400, code: "ErrUnknownField" });
    await refused(() => put(friend.email, { preset: { viewer: true } }), { status: 400, code: "ErrUnknownField" });
    expect((await put(friend.email, { preset: "operator" })).status).toBe(204);
    expect(JSON.parse((await flagsOf(id, friend.userId))!).sort()).toEqual([...PERMISSION_PRESETS.operator].sort());
  });
});

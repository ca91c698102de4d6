// Attacks on what the activity log says a user did through the daemon proxy: a sub-user adds query
// keys or JSON body keys to a node operation hoping the row (and every webhook told of it) records
// them — that a change came over SFTP, that another file was deleted or another backup locked,
// that the backup policy changed. A row takes from the query and body only the keys the operation's entry in
// core/contract lists, the path's parameters win over both, and `via` is never a caller's to say.
import { beforeAll, describe, expect, test } from "bun:test";
import { and, eq, gt } from "drizzle-orm";
import { schema } from "../../db";
import { NODE_OPERATIONS, type NodeOperation } from "../../core/contract";
import { panelForAll, type PanelWithNode } from "../helpers/panel-node";

let ctx: PanelWithNode;
let server: string;
let user: { token: string; userId: number; email: string };
panelForAll((made) => (ctx = made));
beforeAll(async () => {
  server = await ctx.createServer("claims");
  user = await ctx.userWith(server, { putServerFiles: true, viewServerFiles: true, backups: true });
});

const call = (method: string, rest: string, body?: unknown) =>
  ctx.panel.request(`/proxy/daemon/server/${server}${rest}`, {
    token: user.token,
    method,
    headers: { origin: "http://localhost", ...(typeof body === "string" ? { "content-type": "application/json" } : {}) },
    body: body as BodyInit | undefined,
  });
const upload = (name: string, query = "") => {
  const form = new FormData();
  form.append("file", new Blob(["x"]), name);
  return call("PUT", `/file/${name}${query}`, form);
};

/** The rows of `event` written on this server by the call `made`, with their properties. */
async function rowsOf(event: string, made: () => Promise<Response>): Promise<Record<string, unknown>[]> {
  const last = (await ctx.panel.db.select({ id: schema.activity.id }).from(schema.activity).orderBy(schema.activity.id).all()).at(-1)?.id ?? 0;
  const res = await made();
  expect(res.status, await res.clone().text()).toBeLessThan(300);
  const rows = await ctx.panel.db.select().from(schema.activity).where(and(eq(schema.activity.event, event), eq(schema.activity.serverId, server), gt(schema.activity.id, last))).all();
  expect(rows.map((row) => row.actorId)).toEqual([String(user.userId)]);
  return rows.map((row) => JSON.parse(row.properties) as Record<string, unknown>);
}

describe("the door a change came through", () => {
  test("a delete through the panel cannot be logged as done over SFTP, nor as another file's", async () => {
    expect((await upload("ops.txt")).status).toBeLessThan(300);
    const rows = await rowsOf("server.file.delete", () => call("DELETE", "/file/ops.txt?via=sftp&path=innocent.txt", JSON.stringify({ path: "innocent.txt", via: "sftp" })));
    expect(rows).toEqual([{ path: "ops.txt" }]);
  });

  test("an upload and a move say no door either, whatever the query or the body", async () => {
    expect(await rowsOf("server.file.write", () => upload("a.txt", "?via=sftp&path=other.txt"))).toEqual([{ path: "a.txt" }]);
    expect(await rowsOf("server.file.rename", () => call("POST", "/move?via=socket", JSON.stringify({ from: "a.txt", to: "b.txt", via: "sftp" })))).toEqual([{ from: "a.txt", to: "b.txt" }]);
  });
});

describe("what the path and the operation name", () => {
  test("a backup's lock names the backup in the path, not one the body names", async () => {
    const made = await call("POST", "/backups?wait=true", JSON.stringify({ note: "nightly" }));
    expect(made.status, await made.clone().text()).toBeLessThan(300);
    const { shortId } = (await made.json()) as { shortId: string };
    const rows = await rowsOf("backup.locked", () => call("POST", `/backups/${shortId}/lock?backup=other`, JSON.stringify({ locked: true, backup: "someone-elses" })));
    expect(rows).toEqual([{ backup: shortId, locked: true }]);
  });

  test("changing the ignore patterns cannot be logged as a change of the backup policy", async () => {
    const rows = await rowsOf("backup.settings.changed", () => call("POST", "/backup-settings/ignore?setting=policy", JSON.stringify({ ignore: "logs/\n", retention: { last: 1 }, target: "s3", setting: "policy" })));
    expect(rows).toEqual([{ setting: "ignore" }]);
  });
});

test("no operation takes a door (`via`) from its caller", () => {
  for (const [name, operation] of Object.entries(NODE_OPERATIONS as Record<string, NodeOperation>)) {
    const taken = [...(operation.activityProperties?.query ?? []), ...(operation.activityProperties?.body ?? []), ...Object.keys(operation.activityProperties?.fixed ?? {})];
    expect({ name, via: taken.includes("via") }).toEqual({ name, via: false });
  }
});

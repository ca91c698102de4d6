// Attacks on the undo of a platform switch by a holder of manageMods alone. The switch kept the
// definition it replaced (the undo puts it back, with the backup taken before); put back after an
// administrator changed the server since, it would revert that change:
// - the administrator lowered the server's limits: the undo must not bring the old ones back;
// - the administrator moved the server to another allocation and gave its old port to another
//   server: the undo must not put it back on that port, outside the panel's allocations;
// - a day after the switch (its backup is a day of play old) the undo is no longer offered.
// Each refused undo says why (ErrModSwitchUndoChanged, ErrModSwitchUndoExpired), changes nothing, and the listing offers no undo; an
// undo right after the switch still works (test/mods-platform-switch.test.ts).
import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { putTemplate } from "../../server/services/templates";
import { replaceDefinition } from "../../server/services/servers/variables";
import { fetchDefinition } from "../../server/services/servers";
import { addToPool } from "../../server/services/allocations/pool";
import { SHIPPED_TEMPLATE_SOURCES } from "../../templates";
import { eventually } from "../helpers/node";
import { jsonInit } from "../helpers/panel-node";
import { hangarPanelForFile, modsApi } from "../helpers/mods";
import { hasRestic } from "../helpers/require-part";

const resticHere = hasRestic();
const { ctx } = await hangarPanelForFile();

/** A shipped template whose install writes what its platform writes, fast and offline. */
function quick(name: "minecraft-paper" | "minecraft-purpur", brand: string) {
  const shipped = SHIPPED_TEMPLATE_SOURCES[name] as Record<string, any>;
  return { ...shipped, install: [{ type: "writefile", target: "version_history.json", text: `{"currentVersion":"git-${brand}-1 (MC: \${version})"}` }, { type: "writefile", target: "installed.txt", text: brand }], data: { ...shipped.data, version: { ...shipped.data.version, options: [{ value: "1.21.1" }] } } };
}

const folder = (id: string, ...path: string[]) => join(ctx().node.config.dataDir, "servers", id, ...path);
async function paper(name: string): Promise<string> {
  const id = await ctx().createServer(name, { template: "minecraft-paper", variables: { version: "1.21.1" } });
  await eventually(() => existsSync(folder(id, "installed.txt")), 20_000, "the install");
  return id;
}
const admin = async (method: string, path: string, body?: unknown) => {
  const answer = await ctx().panel.request(path, { token: ctx().admin.token, ...jsonInit(method, body) });
  return { status: answer.status, body: answer.status === 204 ? null : await answer.json() };
};
const portOf = async (id: string) => (await admin("GET", `/proxy/daemon/server/${id}/data`)).body.data.port;

/** Paper switched to Purpur by a holder of manageMods alone: their token, the mods API and the switch's change id. */
async function switched(id: string) {
  const holder = await ctx().userWith(id, { viewServer: true, manageMods: true });
  const api = modsApi(ctx, () => id);
  const plan = (await api.call("POST", "/versions/plan", { template: "minecraft-purpur" }, holder.token)).body;
  const started = await api.call("POST", `/versions/plan/${plan.planId}/apply`, undefined, holder.token);
  expect(started.status).toBe(202);
  expect(await api.followed(started.body.changeId)).toMatchObject({ state: "done", switchOf: "platform" });
  return { token: holder.token, api, changeId: started.body.changeId as string };
}

/** The undo is refused, the listing offers none, the server still Purpur (its folder and definition). */
async function refused(id: string, { token, api, changeId }: Awaited<ReturnType<typeof switched>>, code = "ErrModSwitchUndoChanged") {
  const undone = await api.call("POST", `/changes/${changeId}/undo`, undefined, token);
  expect({ status: undone.status, code: undone.body.error?.code }).toEqual({ status: 409, code });
  expect((await api.call("GET", "/changes", undefined, token)).body.undoable).toBeNull();
  expect((await fetchDefinition(ctx().panel.db, id)).addons?.platform).toBe("purpur");
  expect(await Bun.file(folder(id, "installed.txt")).text()).toBe("Purpur");
}

describe.skipIf(!resticHere)("undoing a platform switch", () => {
  beforeAll(async () => {
    await putTemplate(ctx().panel.db, "minecraft-paper", quick("minecraft-paper", "Paper"));
    await putTemplate(ctx().panel.db, "minecraft-purpur", quick("minecraft-purpur", "Purpur"));
  }, 60_000);

  test("after an administrator lowered the limits: refused, the lowered limits stay", async () => {
    const db = ctx().panel.db;
    const id = await paper("Undo limits");
    await replaceDefinition(db, id, { ...(await fetchDefinition(db, id)), limits: { memoryMiB: 8192, cpuPercent: 400 } } as any);
    const made = await switched(id);
    await replaceDefinition(db, id, { ...(await fetchDefinition(db, id)), limits: { memoryMiB: 512, cpuPercent: 50 } } as any);
    await refused(id, made);
    expect((await fetchDefinition(db, id)).limits).toEqual({ memoryMiB: 512, cpuPercent: 50 });
  }, 120_000);

  test("after an administrator moved the server to another allocation and gave its port away: refused, no two servers on one port", async () => {
    const db = ctx().panel.db;
    await addToPool(db, ctx().nodeId, { ports: "33230" });
    const a = await paper("Undo port A");
    expect(await portOf(a)).toBe(33230);
    const made = await switched(a);
    await addToPool(db, ctx().nodeId, { ports: "33231" });
    const added = await admin("POST", `/api/servers/${a}/allocations`, {});
    expect((await admin("PUT", `/api/servers/${a}/allocations/${added.body.id}/primary`)).status).toBe(204);
    const old = ((await admin("GET", `/api/servers/${a}/allocations`)).body as { id: number; port: number }[]).find((x) => x.port === 33230)!;
    expect((await admin("DELETE", `/api/servers/${a}/allocations/${old.id}`)).status).toBe(204);
    const b = await paper("Undo port B");
    expect(await portOf(b)).toBe(33230);
    await refused(a, made);
    expect([await portOf(a), await portOf(b)]).toEqual([33231, 33230]);
  }, 180_000);

  test("a day after the switch: refused, its backup is not laid over a day of play", async () => {
    await addToPool(ctx().panel.db, ctx().nodeId, { ports: "33232" });
    const id = await paper("Undo late");
    const made = await switched(id);
    // The journal written a day and a minute ago.
    const dayAgo = (Date.now() - 24 * 60 * 60 * 1000 - 60_000) / 1000;
    utimesSync(join(ctx().node.config.dataDir, "mod-changes", id, "journal.json"), dayAgo, dayAgo);
    await refused(id, made, "ErrModSwitchUndoExpired");
  }, 120_000);
});

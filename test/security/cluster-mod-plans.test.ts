// A mod change is two requests: the plan ("here is what will happen") and its apply ("do it"),
// the second naming the first's id. Plans were kept in the memory of the panel process that made
// them, so behind a round-robin balancer the apply reached the other panel half the time and was
// refused (ErrModPlanUnknown): the Mods tab failed for everyone on a cluster. Plans are now kept in
// the database, still their maker's on their server only and good once, through either panel.
// Two real panel processes on one PostgreSQL database, a real node, a local Modrinth.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { hasPostgres } from "../helpers/database";
import { eventually } from "../helpers/node";
import { fabricFolder } from "../helpers/mods";
import { MODRINTH, startModrinthFixture, type ModrinthFixture } from "../helpers/modrinth-fixture";
import { hasRestic } from "../helpers/require-part";
import { jsonCall, sessionAt, twoPanelsWithServer, type PanelProcess, type TwoPanels } from "../helpers/panel-process";

let rig: TwoPanels;
let a: PanelProcess;
let b: PanelProcess;
let modrinth: ModrinthFixture;
let admin: string;
let serverId: string;

describe.if(hasPostgres() && hasRestic())("two panels on one PostgreSQL database: a mod plan", () => {
  beforeAll(async () => {
    modrinth = await startModrinthFixture();
    rig = await twoPanelsWithServer("modded", { sources: { modrinthCdn: modrinth.cdn } });
    ({ a, b, admin, serverId } = rig);
    expect((await fetch(`${a.base}/api/settings`, jsonCall("PUT", { modSources: { modrinth: { url: modrinth.url } } }, admin))).status).toBe(204);
    fabricFolder(rig.node.folder(serverId), "1.20.4");
  }, 60_000);
  afterAll(async () => {
    await rig?.stop();
    modrinth?.stop();
  });

  const mods = async (panel: PanelProcess, method: string, path: string, body?: unknown, session = admin) => {
    const answer = await fetch(`${panel.base}/api/servers/${serverId}/mods${path}`, jsonCall(method, body, session));
    return { status: answer.status, body: (await answer.json()) as any };
  };

  test("a plan made through one panel is applied through the other, once", async () => {
    const plan = (await mods(a, "POST", "/plan", { source: "modrinth", projectId: MODRINTH.geyser })).body;
    expect(plan.add.map((f: { projectId: string }) => f.projectId)).toEqual([MODRINTH.geyser, MODRINTH.fabricApi]);
    // Someone else who may change the server's mods does not apply it.
    const other = await fetch(`${a.base}/api/users`, jsonCall("POST", { email: "other@example.com", username: "other", password: "another-long-password" }, admin));
    expect(other.status).toBe(201);
    expect((await fetch(`${a.base}/api/servers/${serverId}/user/other%40example.com`, jsonCall("PUT", { viewServer: true, manageMods: true }, admin))).status).toBeLessThan(300);
    const otherSession = await sessionAt(b.base, { email: "other@example.com", password: "another-long-password" });
    expect((await mods(b, "POST", `/plan/${plan.planId}/apply`, undefined, otherSession)).body.error.code).toBe("ErrModPlanUnknown");
    const started = await mods(b, "POST", `/plan/${plan.planId}/apply`);
    expect(started.status).toBe(202);
    // Good once, on either panel.
    for (const panel of [a, b]) expect((await mods(panel, "POST", `/plan/${plan.planId}/apply`)).body.error.code).toBe("ErrModPlanUnknown");
    let state = "running";
    await eventually(async () => (state = (await mods(a, "GET", `/changes/${started.body.changeId}`)).body.state) !== "running", 30_000, "the change to end");
    expect(state).toBe("done");
    for (const file of plan.add as Array<{ fileName: string }>) expect(existsSync(join(rig.node.folder(serverId, "mods"), file.fileName))).toBe(true);
  });
});

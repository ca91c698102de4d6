// Attacks on the platform switch (the Mods tab's switch to another template): a holder of
// manageMods choosing a template that is not offered, a user without it, and the node asked
// directly (as if the panel were bypassed) with a definition that would do more than change the
// platform: raise the limits an administrator set, change the environment, the Minecraft version,
// go to another folder's platform, name a platform the definition does not state, move the server
// to another port, or carry no definition at all; and a definition sent with another kind of
// switch. Each is refused with a catalogue error and the server's definition is as it was. Through
// the panel, a switch to a template whose port users may not edit keeps the allocation's port. A
// pack's definition onto a server of another game whose files look like Fabric's is refused, and
// so is a definition that puts a docker server an administrator kept off the host's network on it.
// A value a user set never goes into a variable the new template keeps from users.
import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { putTemplate } from "../../server/services/templates";
import { addToPool } from "../../server/services/allocations/pool";
import { SHIPPED_TEMPLATE_SOURCES } from "../../templates";
import { eventually } from "../helpers/node";
import { fabricServer, hangarPanelForFile, modsApi, switchRefusal } from "../helpers/mods";
import { jsonInit } from "../helpers/panel-node";
import { hasRestic } from "../helpers/require-part";

const resticHere = hasRestic();
const { ctx } = await hangarPanelForFile();
let id: string;
const { call: mods } = modsApi(ctx, () => id);
const definition = async () => (await (await ctx().panel.request(`/proxy/daemon/server/${id}/data`, { token: ctx().admin.token })).json()).data as Record<string, unknown>;

/** A shipped template with a quick install and its versions listed. */
function quick(name: string, brand: string) {
  const shipped = SHIPPED_TEMPLATE_SOURCES[name] as Record<string, any>;
  return { ...shipped, install: [{ type: "writefile", target: "version_history.json", text: `{"currentVersion":"git-${brand}-1 (MC: \${version})"}` }], data: { ...shipped.data, version: { ...shipped.data.version, options: [{ value: "1.21.1" }] } } };
}

describe.skipIf(!resticHere)("the platform switch under attack", () => {
  let purpur: Record<string, any>;
  beforeAll(async () => {
    await putTemplate(ctx().panel.db, "minecraft-paper", quick("minecraft-paper", "Paper"));
    await putTemplate(ctx().panel.db, "minecraft-purpur", quick("minecraft-purpur", "Purpur"));
    await putTemplate(ctx().panel.db, "minecraft-fabric", quick("minecraft-fabric", "Fabric"));
    id = await ctx().createServer("Attacked platform", { template: "minecraft-paper", variables: { version: "1.21.1" } });
    await eventually(() => existsSync(join(ctx().node.config.dataDir, "servers", id, "version_history.json")), 20_000, "the first install");
    // What the panel would send for Purpur, read from a real plan's target: the Purpur template built for this server.
    const current = (await (await ctx().panel.request(`/proxy/daemon/server/${id}`, { token: ctx().admin.token })).json()) as Record<string, any>;
    const { switchedDefinition } = await import("../../server/services/mods/platform-switch");
    const { getTemplate } = await import("../../server/services/templates");
    purpur = switchedDefinition(current as never, await getTemplate(ctx().panel.db, "minecraft-purpur")) as unknown as Record<string, any>;
    expect(purpur?.addons?.platform).toBe("purpur");
  }, 60_000);

  test("a user without manageMods can neither list platforms nor plan a switch", async () => {
    const user = await ctx().userWith(id, { viewServer: true, editServerData: true });
    expect((await mods("GET", "/versions", undefined, user.token)).status).toBe(403);
    expect((await mods("POST", "/versions/plan", { template: "minecraft-purpur" }, user.token)).status).toBe(403);
  });

  test("a template that is not offered, or one named twice with another switch, is refused", async () => {
    expect((await mods("POST", "/versions/plan", { template: "minecraft-fabric" })).body.error).toMatchObject({ code: "ErrFieldNotBetween", metadata: { field: "template" } });
    expect((await mods("POST", "/versions/plan", { template: "../minecraft-purpur" })).body.error).toMatchObject({ code: "ErrFieldNotBetween" });
    expect((await mods("POST", "/versions/plan", { template: "minecraft-purpur", gameVersion: "1.21.1" })).body.error).toMatchObject({ code: "ErrUnknownField" });
  });

  test("on the node: a definition doing more than changing the platform is refused, nothing changed", async () => {
    const before = await definition();
    const refused = switchRefusal(ctx(), id);
    const base = { what: "platform", variable: "version", value: "purpur", folder: null };
    const cases: [string, unknown, string][] = [
      ["limits raised", { ...base, definition: { ...purpur, limits: { memoryMiB: 999_999, cpuPercent: 800 } } }, "ErrFieldNotBetween"],
      ["another environment", { ...base, definition: { ...purpur, environment: { type: "tty" } } }, "ErrFieldNotBetween"],
      ["another Minecraft version", { ...base, definition: { ...purpur, data: { ...purpur.data, version: { ...purpur.data.version, value: "1.20.4" } } } }, "ErrFieldNotBetween"],
      ["a mod loader (another folder)", { ...base, value: "fabric", definition: { ...purpur, addons: { ...purpur.addons, platform: "fabric" } } }, "ErrModPlatformSwitchUnavailable"],
      ["a platform the definition does not state", { ...base, value: "spigot", definition: purpur }, "ErrModPlatformSwitchUnavailable"],
      ["the same platform", { ...base, value: "paper", definition: { ...purpur, addons: { ...purpur.addons, platform: "paper" } } }, "ErrModPlatformSwitchUnavailable"],
      ["no definition", base, "ErrFieldNotBetween"],
      ["a definition that is none", { ...base, definition: { name: 1 } }, "ErrFieldNotBetween"],
      ["another variable than the new template's version", { ...base, variable: "build", definition: purpur }, "ErrModPlatformSwitchUnavailable"],
      ["a definition with a Minecraft switch", { what: "game", variable: "version", value: "1.20.4", folder: null, definition: purpur }, "ErrUnknownField"],
      ["another port", { ...base, definition: { ...purpur, data: { ...purpur.data, port: { ...purpur.data.port, value: 25566 } } } }, "ErrFieldNotBetween"],
      ["a port more", { ...base, definition: { ...purpur, extraPorts: [25570] } }, "ErrFieldNotBetween"],
    ];
    for (const [what, body, code] of cases) expect({ what, code: await refused(body) }).toEqual({ what, code });
    expect(await definition()).toEqual(before);
  });

  test("on the node: a CurseForge pack laid onto a plugin server, or a pack's definition doing more than installing the pack, is refused", async () => {
    const before = await definition();
    const refused = switchRefusal(ctx(), id);
    const fabricId = await ctx().createServer("Attacked pack onto", { template: "minecraft-fabric", variables: { version: "1.21.1" } });
    const onFabric = switchRefusal(ctx(), fabricId);
    const fabricBefore = (await (await ctx().panel.request(`/proxy/daemon/server/${fabricId}`, { token: ctx().admin.token })).json()) as unknown;
    const { rebuiltDefinition } = await import("../../server/services/mods/platform-switch");
    const { templateSchema } = await import("../../core/definition");
    const current = templateSchema.parse(await (await ctx().panel.request(`/proxy/daemon/server/${id}`, { token: ctx().admin.token })).json());
    const pack = rebuiltDefinition(current, templateSchema.parse(SHIPPED_TEMPLATE_SOURCES["minecraft-curseforge"]), { projectId: "100", fileId: "1001" }, []) as unknown as Record<string, any>;
    const base = { what: "pack", variable: "fileId", value: "1001", folder: null };
    // This server is Paper's: a pack brings mods, which its plugins folder does not load.
    expect(await refused({ ...base, definition: pack })).toBe("ErrModPackSwitchUnavailable");
    const cases: [string, unknown, string][] = [
      ["another file than the definition sets", { ...base, value: "1003", definition: pack }, "ErrFieldNotBetween"],
      ["a value that is no CurseForge file", { ...base, value: "../1001", definition: pack }, "ErrFieldNotBetween"],
      ["another variable than the pack's file", { ...base, variable: "projectId", value: "100", definition: pack }, "ErrModPackSwitchUnavailable"],
      ["a definition installing no pack", { ...base, definition: purpur }, "ErrModPackSwitchUnavailable"],
    ];
    // A server of another game (its template states no platform and is not of the Minecraft Java type) whose files look like Fabric's.
    const otherGame = await fabricServer(ctx(), "Another game", "1.21.1");
    const otherBefore = (await (await ctx().panel.request(`/proxy/daemon/server/${otherGame}`, { token: ctx().admin.token })).json()) as unknown;
    expect(await switchRefusal(ctx(), otherGame)({ ...base, definition: pack })).toBe("ErrModPackSwitchUnavailable");
    expect(await (await ctx().panel.request(`/proxy/daemon/server/${otherGame}`, { token: ctx().admin.token })).json()).toEqual(otherBefore);
    // On a mod loader's server, the pack's definition must install that pack's file and change nothing else.
    for (const [what, body, code] of cases) expect({ what, code: await onFabric(body) }).toEqual({ what, code });
    expect(await onFabric({ ...base, definition: { ...pack, limits: { memoryMiB: 999_999 } } })).toBe("ErrFieldNotBetween");
    expect(await onFabric({ ...base, definition: { ...pack, data: { ...pack.data, port: { ...pack.data.port, value: 25566 } } } })).toBe("ErrFieldNotBetween");
    expect(await definition()).toEqual(before);
    expect(await (await ctx().panel.request(`/proxy/daemon/server/${fabricId}`, { token: ctx().admin.token })).json()).toEqual(fabricBefore);
  });

  test("a switch keeps the server on its allocation's port, even to a template whose port users may not edit (none carried): never on another server's", async () => {
    await addToPool(ctx().panel.db, ctx().nodeId, { ports: "33210" });
    const allocated = await ctx().createServer("Allocated platform", { template: "minecraft-paper", variables: { version: "1.21.1" } });
    await eventually(() => existsSync(join(ctx().node.config.dataDir, "servers", allocated, "version_history.json")), 20_000, "the first install");
    const portOf = async () => (await (await ctx().panel.request(`/proxy/daemon/server/${allocated}/data`, { token: ctx().admin.token })).json()).data.port;
    expect(await portOf()).toBe(33210);
    // As PufferPanel's templates are imported: the port is not the users' to edit (the server
    // made first in this file is on the template's default, 25565).
    const locked = quick("minecraft-purpur", "Purpur");
    await putTemplate(ctx().panel.db, "purpur-port-locked", { ...locked, display: "Purpur, port locked", data: { ...locked.data, port: { ...locked.data.port, userEdit: false } } });
    const holder = await ctx().userWith(allocated, { viewServer: true, manageMods: true });
    const { call, followed } = modsApi(ctx, () => allocated);
    const plan = (await call("POST", "/versions/plan", { template: "purpur-port-locked" }, holder.token)).body;
    expect(plan.target?.template).toBe("purpur-port-locked");
    const started = await call("POST", `/versions/plan/${plan.planId}/apply`, undefined, holder.token);
    expect(started.status).toBe(202);
    expect((await followed(started.body.changeId)).state).toBe("done");
    expect(await portOf()).toBe(33210);
  }, 60_000);

  test("a value a user set does not go into a variable the new template keeps from users, even where both templates share its default", async () => {
    await addToPool(ctx().panel.db, ctx().nodeId, { ports: "33212" });
    // Paper lets users edit the JVM flags; a copy of Purpur runs them as its administrator's (users
    // may not edit them there, so the template may put them where a user's text must not go).
    const paper = quick("minecraft-paper", "Paper");
    await putTemplate(ctx().panel.db, "paper-open-flags", { ...paper, display: "Paper, open flags", data: { ...paper.data, jvmFlags: { type: "string", value: "-Xmx1G", display: "JVM flags", desc: "", required: false, userEdit: true } } });
    const purpur = quick("minecraft-purpur", "Purpur");
    await putTemplate(ctx().panel.db, "purpur-locked-flags", { ...purpur, display: "Purpur, locked flags", data: { ...purpur.data, jvmFlags: { type: "string", value: "-Xmx1G", display: "JVM flags", desc: "", required: false, userEdit: false } } });
    const server = await ctx().createServer("Flags platform", { template: "paper-open-flags", variables: { version: "1.21.1" } });
    await eventually(() => existsSync(join(ctx().node.config.dataDir, "servers", server, "version_history.json")), 20_000, "the first install");
    const holder = await ctx().userWith(server, { viewServer: true, manageMods: true, editServerData: true });
    expect((await ctx().panel.request(`/proxy/daemon/server/${server}/data`, { token: holder.token, ...jsonInit("POST", { data: { jvmFlags: "-javaagent:/tmp/evil.jar" } }) })).status).toBeLessThan(300);
    const { call, followed } = modsApi(ctx, () => server);
    const plan = (await call("POST", "/versions/plan", { template: "purpur-locked-flags" }, holder.token)).body;
    expect(plan.target?.template).toBe("purpur-locked-flags");
    const started = await call("POST", `/versions/plan/${plan.planId}/apply`, undefined, holder.token);
    expect((await followed(started.body.changeId)).state).toBe("done");
    const data = (await (await ctx().panel.request(`/proxy/daemon/server/${server}/data`, { token: ctx().admin.token })).json()).data;
    expect(data.jvmFlags).toBe("-Xmx1G");
  }, 60_000);

  test("a switch keeps the docker network an administrator set: a server kept off the host's network does not join it", async () => {
    await addToPool(ctx().panel.db, ctx().nodeId, { ports: "33211" });
    const isolated = await ctx().createServer("Isolated platform", { template: "minecraft-paper", variables: { version: "1.21.1" }, environment: { type: "docker", networkMode: "none" } });
    await eventually(() => existsSync(join(ctx().node.config.dataDir, "servers", isolated, "version_history.json")), 20_000, "the first install");
    const environment = async () => ((await (await ctx().panel.request(`/proxy/daemon/server/${isolated}`, { token: ctx().admin.token })).json()) as Record<string, any>).environment;
    expect((await environment()).networkMode).toBe("none");
    // On the node: Purpur's definition with its template's own network (the host's) is refused.
    const current = (await (await ctx().panel.request(`/proxy/daemon/server/${isolated}`, { token: ctx().admin.token })).json()) as Record<string, any>;
    const { switchedDefinition } = await import("../../server/services/mods/platform-switch");
    const { getTemplate } = await import("../../server/services/templates");
    const target = switchedDefinition(current as never, await getTemplate(ctx().panel.db, "minecraft-purpur")) as unknown as Record<string, any>;
    const onHost = { ...target, environment: { ...target.environment, networkMode: "host" } };
    expect(await switchRefusal(ctx(), isolated)({ what: "platform", variable: "version", value: "purpur", folder: null, definition: onHost })).toBe("ErrFieldNotBetween");
    // Through the panel, by a holder of manageMods: the switch is made, the network stays.
    const holder = await ctx().userWith(isolated, { viewServer: true, manageMods: true });
    const { call, followed } = modsApi(ctx, () => isolated);
    const plan = (await call("POST", "/versions/plan", { template: "minecraft-purpur" }, holder.token)).body;
    const started = await call("POST", `/versions/plan/${plan.planId}/apply`, undefined, holder.token);
    expect(started.status).toBe(202);
    expect((await followed(started.body.changeId)).state).toBe("done");
    expect(await environment()).toMatchObject({ type: "docker", networkMode: "none", image: "eclipse-temurin:21-jre" });
    expect(((await (await ctx().panel.request(`/proxy/daemon/server/${isolated}`, { token: ctx().admin.token })).json()) as Record<string, any>).addons.platform).toBe("purpur");
  }, 60_000);

  test("through the panel, the plan's definition is the panel's own: a plan cannot be applied by another holder of manageMods", async () => {
    const plan = (await mods("POST", "/versions/plan", { template: "minecraft-purpur" })).body;
    const other = await ctx().userWith(id, { viewServer: true, manageMods: true });
    const stolen = await ctx().panel.request(`/api/servers/${id}/mods/versions/plan/${plan.planId}/apply`, { token: other.token, ...jsonInit("POST") });
    expect(stolen.status).toBe(404);
  });
});

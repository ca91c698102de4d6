// Attacks on the mods API, by a user of the server without manageMods, by another holder of it,
// and by the source's answers (a project can publish any file name, size and bytes; a source can
// hang or answer megabytes). Each gets a catalogue error and the server's folder is unchanged.
import { beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { jsonInit, type PanelWithNode } from "../helpers/panel-node";
import { fabricServer, modrinthPanelForFile, modsApi } from "../helpers/mods";
import { hasRestic } from "../helpers/require-part";
import { SERVER_FLAGS } from "../../core/scopes";

const resticHere = hasRestic();
const { modrinth, ctx: panel } = await modrinthPanelForFile();
let ctx: PanelWithNode;

const FABRIC_API = "P7dR8mSH";
const LITHIUM = "gvQqBUqZ";
let id: string;
const mods = () => ctx.node.folder(id, "mods");
const { call, apply: appliedAndEnded } = modsApi(() => ctx, () => id);

describe.skipIf(!resticHere)("the mods API under attack", () => {
  beforeAll(async () => {
    ctx = panel();
    id = await fabricServer(ctx, "Target", "1.20.1");
    mkdirSync(mods(), { recursive: true });
    writeFileSync(join(mods(), "kept.jar"), "kept");
  });

  test("a user with every other flag but manageMods is refused on every route", async () => {
    const others = Object.fromEntries(SERVER_FLAGS.filter((f) => f !== "manageMods").map((f) => [f, true]));
    const user = await ctx.userWith(id, others);
    const plan = (await call("POST", "/plan", { source: "modrinth", projectId: FABRIC_API })).body;
    for (const [method, path, body] of [
      ["GET", "/platform"], ["GET", "/search?q=x"], ["GET", `/projects/${FABRIC_API}`], ["GET", "/installed"], ["GET", "/changes"],
      ["POST", "/plan", { projectId: FABRIC_API }], ["POST", "/remove", { fileNames: ["kept.jar"] }], ["POST", `/plan/${plan.planId}/apply`],
      ["POST", "/enabled", { fileNames: ["kept.jar"], enabled: false }], ["GET", "/changes/00000000-0000-4000-8000-000000000000"], ["POST", "/changes/00000000-0000-4000-8000-000000000000/undo"],
    ] as const) {
      const answer = await call(method, path, body, user.token);
      expect({ path, status: answer.status, code: answer.body.error?.code }).toEqual({ path, status: 403, code: "ErrNoPermission" });
    }
    expect(readdirSync(mods())).toEqual(["kept.jar"]);
  });

  test("a plan is its maker's on its server: another holder of manageMods, or another server, cannot apply it", async () => {
    const plan = (await call("POST", "/plan", { source: "modrinth", projectId: FABRIC_API })).body;
    const other = await ctx.userWith(id, { manageMods: true });
    expect((await call("POST", `/plan/${plan.planId}/apply`, undefined, other.token)).body.error.code).toBe("ErrModPlanUnknown");
    const second = id;
    id = await ctx.createServer("Other");
    expect((await call("POST", `/plan/${plan.planId}/apply`)).body.error.code).toBe("ErrModPlanUnknown");
    id = second;
    expect(readdirSync(mods())).toEqual(["kept.jar"]);
  });

  test("a version whose file name climbs out of mods/: the plan is refused, nothing is fetched", async () => {
    modrinth.setVersionFileName("L6LGItxd", "../../evil.jar");
    const answer = await call("POST", "/plan", { source: "modrinth", projectId: FABRIC_API, versionId: "L6LGItxd" });
    expect(answer.status).toBe(502);
    expect(answer.body.error.code).toBe("ErrModSourceUnavailable");
    expect(JSON.stringify(answer.body)).not.toContain("/work");
  });

  test("bytes other than the hash, or a 10 MB file announced as 500 KB: the change fails and the folder is unchanged", async () => {
    const [version] = (await call("GET", `/projects/${LITHIUM}`)).body.versions.filter((v: { gameVersions: string[] }) => v.gameVersions.includes("1.20.1"));
    modrinth.setFileBytes(version.versionId, new TextEncoder().encode("not what the hash says"));
    const forged = await appliedAndEnded((await call("POST", "/plan", { source: "modrinth", projectId: LITHIUM, versionId: version.versionId })).body.planId);
    expect(forged).toMatchObject({ state: "failed", error: { code: "ErrModHashMismatch" } });

    modrinth.announceSize("ZSNsJrPI", 500 * 1024, 10 * 1024 * 1024);
    const big = await appliedAndEnded((await call("POST", "/plan", { source: "modrinth", projectId: LITHIUM, versionId: "ZSNsJrPI" })).body.planId);
    expect(big).toMatchObject({ state: "failed", error: { code: "ErrModTooLarge" } });
    expect(readdirSync(mods())).toEqual(["kept.jar"]);
  }, 60_000);

  test("ids that are paths or queries are refused before the source is asked", async () => {
    const before = modrinth.requests.length;
    for (const projectId of ["../../admin", "a/b", "x?y=1", "", "a".repeat(65)]) {
      expect((await call("POST", "/plan", { source: "modrinth", projectId })).status).toBe(400);
    }
    expect((await call("POST", "/plan", { source: "elsewhere", projectId: FABRIC_API })).status).toBe(400);
    expect((await call("GET", "/changes/..%2f..%2fetc")).status).toBe(404);
    expect(modrinth.requests.length).toBe(before);
    // Wrong shapes for the lists and switches: field errors, nothing changed.
    for (const body of [{}, { fileNames: "kept.jar" }, { fileNames: [] }, { fileNames: [1] }]) expect((await call("POST", "/remove", body)).status).toBe(400);
    for (const body of [{ fileNames: ["kept.jar"] }, { fileNames: ["kept.jar"], enabled: "no" }, { fileNames: "kept.jar", enabled: false }]) expect((await call("POST", "/enabled", body)).status).toBe(400);
    expect((await call("POST", "/remove", { fileNames: ["../kept.jar"] })).status).toBe(404);
    expect(readdirSync(mods())).toEqual(["kept.jar"]);
  });

  test("an answer over the size cap, a source that hangs, a source turned off: ErrModSourceUnavailable, in bounded time", async () => {
    modrinth.setProjectBody(LITHIUM, "x".repeat(9 * 1024 * 1024));
    const huge = await call("GET", `/projects/${LITHIUM}`);
    expect(huge.body.error.code).toBe("ErrModSourceUnavailable");

    modrinth.hang("/v2/search");
    const started = Date.now();
    const hung = await call("GET", "/search?q=x");
    expect(hung.body.error).toMatchObject({ code: "ErrModSourceUnavailable", metadata: { reason: "no answer in time" } });
    expect(Date.now() - started).toBeLessThan(15_000);

    const off = await ctx.panel.request("/api/settings", { token: ctx.admin.token, ...jsonInit("PUT", { modSources: { modrinth: { enabled: false, url: modrinth.url } } }) });
    expect(off.status).toBe(204);
    expect((await call("GET", "/installed")).body.error?.code).toBeUndefined();
    expect((await call("POST", "/plan", { projectId: FABRIC_API })).body.error.code).toBe("ErrModSourceUnavailable");
  }, 30_000);

  test("the source setting: only http(s) without credentials, only known sources, only for settings editors", async () => {
    for (const modSources of [{ modrinth: { url: "file:///etc/passwd" } }, { modrinth: { url: "http://u:p@example.com" } }, { elsewhere: { url: "https://example.com" } }, { modrinth: { enabled: "yes" } }, { papermc: { url: "file:///etc/passwd" } }, { fabric: { url: "http://u:p@example.com" } }, { fabric: { url: "javascript:alert(1)" } }, { neoforge: { url: "file:///etc/passwd" } }, { neoforge: { url: "http://u:p@maven.example" } }]) {
      const refused = await ctx.panel.request("/api/settings", { token: ctx.admin.token, ...jsonInit("PUT", { modSources }) });
      expect(refused.status).toBe(400);
    }
    const user = await ctx.userWith(id, { manageMods: true });
    expect((await ctx.panel.request("/api/settings", { token: user.token, ...jsonInit("PUT", { modSources: { modrinth: { url: "http://127.0.0.1:1" } } }) })).status).toBe(403);
  });
});

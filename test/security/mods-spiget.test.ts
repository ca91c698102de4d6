// Attacks through Spiget as a source of the plugins browser, by a holder of manageMods and by
// Spiget's answers (a resource's author names it anything; a download redirect can point anywhere;
// the file host can serve a page instead of a jar, or other bytes later): the panel follows a
// download redirect only to Spiget's file host or the API's own origin, never elsewhere; what it
// pins must be a jar; bytes changed between the plan and the change are refused by the node with
// nothing written; a name that would climb out of plugins/ becomes a plain file name; markup stays
// text, and a page of it never closed is read in time proportional to its length; an id that is
// not Spiget's is refused before anything is asked; a folder of many files placed from Spiget
// costs a listing a bounded number of questions. A user without manageMods reaches none of it.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MAX_ORIGIN_LOOKUPS } from "../../server/services/mods/spiget";
import { SPIGET } from "../helpers/spiget-fixture";
import { addonFolderNames, modsApi, spigetPanelForFile, spigotServer } from "../helpers/mods";
import type { PanelWithNode } from "../helpers/panel-node";
import { hasRestic } from "../helpers/require-part";

const resticHere = hasRestic();
const { spiget, ctx: panel } = spigetPanelForFile();
let ctx: PanelWithNode;
let id: string;
const { call, followed } = modsApi(() => ctx, () => id);
const listed = addonFolderNames(() => ctx, () => id);
const ESSENTIALS = String(SPIGET.essentials);
/** A host of the panel's network a forged redirect would like the panel to fetch. */
let elsewhereHits = 0;
const elsewhere = Bun.serve({ port: 0, hostname: "127.0.0.2", fetch: () => (elsewhereHits++, new Response("PK secret")) });
afterAll(() => elsewhere.stop(true));

describe.skipIf(!resticHere)("Spiget as a source, under attack", () => {
  beforeAll(async () => {
    ctx = panel();
    id = await spigotServer(ctx, "Spiget target", "1.21.1");
  });

  test("a download redirect to another host is not followed: the plan is refused, the other host never asked", async () => {
    spiget.redirect(SPIGET.essentials, `http://127.0.0.2:${elsewhere.port}/file/spiget-resources/${SPIGET.essentials}.jar`);
    try {
      const answer = await call("POST", "/plan", { source: "spiget", projectId: ESSENTIALS });
      expect(answer.body.error).toMatchObject({ code: "ErrModSourceUnavailable", metadata: { source: "Spiget" } });
      expect(answer.body.error.metadata.reason).toContain("another host");
    } finally {
      spiget.redirect(SPIGET.essentials, `${spiget.origin}/file/spiget-resources/${SPIGET.essentials}.jar`);
    }
    expect(elsewhereHits).toBe(0);
  });

  test("a page instead of a jar is refused when the file is pinned", async () => {
    const jar = spiget.jar(SPIGET.essentials);
    spiget.setJar(SPIGET.essentials, new TextEncoder().encode("<!DOCTYPE html><title>Just a moment...</title>"));
    try {
      const answer = await call("POST", "/plan", { source: "spiget", projectId: ESSENTIALS });
      expect(answer.body.error).toMatchObject({ code: "ErrModSourceUnavailable", metadata: { source: "Spiget" } });
      expect(answer.body.error.metadata.reason).toContain("not a jar");
    } finally {
      spiget.setJar(SPIGET.essentials, jar);
    }
  });

  test("other bytes served after the plan: the node refuses them, nothing is written", async () => {
    const before = listed();
    const plan = (await call("POST", "/plan", { source: "spiget", projectId: ESSENTIALS })).body;
    const jar = spiget.jar(SPIGET.essentials);
    spiget.setJar(SPIGET.essentials, new TextEncoder().encode("PK but another jar than the one planned"));
    try {
      const change = await followed((await call("POST", `/plan/${plan.planId}/apply`)).body.changeId);
      expect(change).toMatchObject({ state: "failed", error: { code: expect.stringMatching(/^ErrMod(HashMismatch|TooLarge)$/) } });
    } finally {
      spiget.setJar(SPIGET.essentials, jar);
    }
    expect(listed()).toEqual(before);
  }, 30_000);

  test("a resource named to climb out of plugins/ gets a plain file name; markup in its name and page stays text", async () => {
    const resource = spiget.resource(SPIGET.essentials);
    const [name, description] = [resource.name, resource.description];
    resource.name = "../../<img src=x onerror=alert(1)>";
    resource.description = Buffer.from(`<iframe src="javascript:alert(1)"></iframe><p>Hello</p>`).toString("base64");
    try {
      const project = (await call("GET", `/projects/${ESSENTIALS}?source=spiget`)).body;
      expect(project.title).toBe("../../<img src=x onerror=alert(1)>");
      expect(project.body).toBe("Hello");
      const plan = (await call("POST", "/plan", { source: "spiget", projectId: ESSENTIALS })).body;
      expect(plan.add[0].fileName).toBe("img srcx onerroralert(1)-2.90.0.jar");
      const page = await ctx.page(`/server/${id}?tab=mods&project=${ESSENTIALS}&source=spiget`, ctx.admin.token);
      expect(page.html).toContain("&lt;img src=x onerror=alert(1)&gt;");
      expect(page.html).not.toContain("<img src=x");
      expect(page.html).not.toContain("<iframe");
    } finally {
      resource.name = name;
      resource.description = description;
    }
  });

  test("a page of markup never closed is read in time proportional to its length: the panel is not held", async () => {
    const resource = spiget.resource(SPIGET.essentials);
    const description = resource.description;
    // Within Spiget's description cap (512 KiB of base64). Each "<" with no ">" after it, each
    // "<script" with no closing tag, once looked for to the end, held the panel's one thread ~50 s.
    try {
      for (const page of ["<".repeat(380_000), "<script".repeat(54_000), "<p>Hello</p>" + "<style".repeat(54_000)]) {
        resource.description = Buffer.from(page).toString("base64");
        const started = performance.now();
        const project = (await call("GET", `/projects/${ESSENTIALS}?source=spiget`)).body;
        expect(project.projectId).toBe(ESSENTIALS);
        expect(project.body.startsWith(page.startsWith("<p>") ? "Hello" : page.slice(0, 64))).toBe(true);
        expect(performance.now() - started).toBeLessThan(3000);
      }
    } finally {
      resource.description = description;
    }
  }, 20_000);

  test("an id that is not Spiget's is refused before Spiget is asked", async () => {
    const asked = spiget.requests.length;
    for (const projectId of ["essentials", "0", "12345678901", "9089.1"]) {
      const answer = await call("GET", `/projects/${encodeURIComponent(projectId)}?source=spiget`);
      expect({ projectId, status: answer.status }).toEqual({ projectId, status: 404 });
    }
    expect(spiget.requests.length).toBe(asked);
    // A version id not of Kiln's form for Spiget (<resource>.<version>) is refused before any version is asked.
    for (const versionId of ["9089", "9089.90890.1", "x.1", "9089.0"]) {
      const answer = await call("POST", "/plan", { source: "spiget", projectId: ESSENTIALS, versionId });
      expect({ versionId, status: answer.status }).toEqual({ versionId, status: 404 });
    }
    expect(spiget.requests.slice(asked).filter((r) => r.includes("/versions/"))).toEqual([]);
  });

  test("a folder of many files placed from Spiget costs a listing at most two questions per file for MAX_ORIGIN_LOOKUPS files", async () => {
    // Forty files the node's record says came from Spiget (a folder that grew, or a record of a server with many plugins).
    const folder = ctx.node.folder(id, "plugins");
    mkdirSync(folder, { recursive: true });
    const record: Record<string, { source: string; projectId: string; versionId: string }> = {};
    for (let i = 0; i < 40; i++) {
      const bytes = `PK many ${i}\n`;
      writeFileSync(join(folder, `many-${i}.jar`), bytes);
      record[createHash("sha512").update(bytes).digest("hex")] = { source: "spiget", projectId: ESSENTIALS, versionId: `${ESSENTIALS}.${5000 + i}` };
    }
    mkdirSync(join(ctx.node.config.dataDir, "mod-origins"), { recursive: true });
    writeFileSync(join(ctx.node.config.dataDir, "mod-origins", `${id}.json`), JSON.stringify(record));
    const asked = spiget.requests.length;
    expect((await call("GET", "/installed")).status).toBe(200);
    const versionQuestions = spiget.requests.slice(asked).filter((path) => /^\/v2\/resources\/\d+\/versions\/5\d{3}$/.test(path));
    expect(versionQuestions.length).toBe(MAX_ORIGIN_LOOKUPS);
  });

  test("a user without manageMods reaches no Spiget route", async () => {
    const user = await ctx.userWith(id, { viewServer: true, editServerData: true });
    const asked = spiget.requests.length;
    for (const [method, path, body] of [["GET", "/search?q=x&source=spiget"], ["GET", `/projects/${ESSENTIALS}?source=spiget`], ["POST", "/plan", { source: "spiget", projectId: ESSENTIALS }]] as const) {
      const answer = await call(method, path, body, user.token);
      expect({ path, status: answer.status }).toEqual({ path, status: 403 });
    }
    expect(spiget.requests.length).toBe(asked);
  });
});

// Attacks through Hangar as a source of the plugins browser, by a holder of manageMods and by
// Hangar's answers (an author publishes any file name and size; an answer can name any download
// host, serve other bytes than it hashed, or claim a hash for another project's file): an id that
// is not Hangar's is refused before anything is asked; a file name that climbs out of plugins/, a
// download on another host, more bytes than announced and bytes that do not match the SHA-256 are
// refused with nothing written; an answer naming a file by hash is believed only when the project's
// own version lists that hash; markup in a name stays text; a category Hangar does not have, or
// one that would carry another parameter, is refused before Hangar is asked. A user without manageMods reaches none
// of it.
import { beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { HANGAR } from "../helpers/hangar-fixture";
import { addonFolderNames, hangarPanelForFile, modsApi, paperServer } from "../helpers/mods";
import type { PanelWithNode } from "../helpers/panel-node";
import { hasRestic } from "../helpers/require-part";

const resticHere = hasRestic();
const { hangar, ctx: panel } = await hangarPanelForFile();
let ctx: PanelWithNode;
let id: string;
const { call, followed } = modsApi(() => ctx, () => id);
const listed = addonFolderNames(() => ctx, () => id);
const plugins = () => ctx.node.folder(id, "plugins");
const VIAVERSION = String(HANGAR.viaVersion);
const RELEASE = 9001;

/** Plans ViaVersion's release and applies it: the change's error, or the plan's when it is refused there. */
async function installOutcome(): Promise<{ code: string }> {
  const plan = await call("POST", "/plan", { source: "hangar", projectId: VIAVERSION, versionId: String(RELEASE) });
  if (plan.status !== 200) return plan.body.error;
  const started = await call("POST", `/plan/${plan.body.planId}/apply`);
  return started.status === 202 ? (await followed(started.body.changeId)).error : started.body.error;
}

describe.skipIf(!resticHere)("Hangar as a source, under attack", () => {
  beforeAll(async () => {
    ctx = panel();
    id = await paperServer(ctx, "Hangar target", "1.21.1");
  });

  test("an id that is not Hangar's is refused before Hangar is asked", async () => {
    const asked = hangar.requests.length;
    // ".." would be a step up Hangar's path (…/projects/.. is …/api/v1/), the others a path or a query.
    for (const projectId of ["..", ".", "ViaVersion/versions", "a%2F..%2Fb", "x?y=1", "x".repeat(65)]) {
      const answer = await call("POST", "/plan", { source: "hangar", projectId });
      expect({ projectId, status: answer.status, code: answer.body.error?.code }).toEqual({ projectId, status: 400, code: "ErrFieldRequired" });
    }
    for (const versionId of ["../9001", "hash/abc", "9001?x=1"]) {
      const answer = await call("POST", "/plan", { source: "hangar", projectId: VIAVERSION, versionId });
      expect({ versionId, status: answer.status }).toEqual({ versionId, status: 400 });
    }
    expect(hangar.requests.length).toBe(asked);
    // A version id of the right form that names no version of Hangar's: not found, as Hangar says.
    expect((await call("POST", "/plan", { source: "hangar", projectId: VIAVERSION, versionId: "abc" })).status).toBe(404);
  });

  test("a category that is not one of Hangar's own is refused before Hangar is asked", async () => {
    const asked = hangar.requests.length;
    // Another source's category, a second parameter smuggled in, a path, markup, Hangar's hidden one, a long one.
    for (const category of ["optimization", "admin_tools&platform=VELOCITY", "../admin_tools", "<b>chat</b>", "undefined", "ADMIN_TOOLS", "0", "x".repeat(5000)]) {
      const answer = await call("GET", `/search?q=&source=hangar&category=${encodeURIComponent(category)}`);
      expect({ category: category.slice(0, 40), status: answer.status, error: answer.body.error }).toMatchObject({ category: category.slice(0, 40), status: 400, error: { code: "ErrFieldNotBetween", metadata: { field: "category" } } });
    }
    expect(hangar.requests.length).toBe(asked);
  });

  test("a file name that climbs out of plugins/ is refused in the plan; nothing is written", async () => {
    const before = listed();
    const file = hangar.version(RELEASE).downloads.PAPER.fileInfo;
    file.name = "../../evil.jar";
    try {
      expect(await installOutcome()).toMatchObject({ code: "ErrModSourceUnavailable", metadata: { source: "Hangar" } });
    } finally {
      file.name = "ViaVersion-5.0.3.jar";
    }
    expect(listed()).toEqual(before);
  });

  test("a download on another host, more bytes than announced, or bytes that are not what Hangar hashed: the change fails, nothing is written", async () => {
    const before = listed();
    const download = hangar.version(RELEASE).downloads.PAPER;
    const url = download.downloadUrl;
    download.downloadUrl = `${hangar.url}/projects/ViaVersion`;
    try {
      expect((await installOutcome()).code).toBe("ErrModSourceNotAllowed");
    } finally {
      download.downloadUrl = url;
    }
    const size = download.fileInfo.sizeBytes;
    download.fileInfo.sizeBytes = 4;
    try {
      expect((await installOutcome()).code).toBe("ErrModTooLarge");
    } finally {
      download.fileInfo.sizeBytes = size;
    }
    hangar.corrupt(RELEASE);
    expect((await installOutcome()).code).toBe("ErrModHashMismatch");
    expect(listed()).toEqual(before);
  }, 60_000);

  test("a project Hangar names for a hash whose versions do not list that hash names nothing", async () => {
    // A plugin dropped in by hand (ViaBackwards's bytes) that Hangar's hash lookup says is ViaVersion:
    // none of ViaVersion's versions has that file, so the file stays unnamed.
    const bytes = new Uint8Array([...hangar.jar(9011), 0x0a]);
    hangar.forgeHash(new Bun.CryptoHasher("sha256").update(bytes).digest("hex"), HANGAR.viaVersion);
    writeFileSync(join(plugins(), "by-hand.jar"), bytes);
    const { body } = await call("GET", "/installed");
    expect(body.find((f: { fileName: string }) => f.fileName === "by-hand.jar")).toEqual({ fileName: "by-hand.jar", enabled: true, size: bytes.length });
  });

  test("markup in a project's name and main page comes back as text, and the tab renders it escaped", async () => {
    const project = hangar.project(HANGAR.maintenance);
    project.name = `<img src=x onerror=alert(1)>Maintenance`;
    project.mainPageContent = `<script>alert("main")</script>\n# Heading`;
    try {
      const { body } = await call("GET", `/projects/${HANGAR.maintenance}?source=hangar`);
      expect(body.title).toBe(`<img src=x onerror=alert(1)>Maintenance`);
      const page = await ctx.page(`/server/${id}?tab=mods&q=maintenance&source=hangar`, ctx.admin.token);
      // The hit is on the page, its name as text.
      expect(page.html).toContain("&lt;img src=x onerror=alert(1)&gt;Maintenance");
      expect(page.html).not.toContain("<img src=x");
      expect(page.html).not.toContain(`<script>alert("main")`);
    } finally {
      project.name = "Maintenance";
      project.mainPageContent = "# Maintenance";
    }
  });

  test("an answer in a shape Kiln does not read, or too large, is the source being unavailable, never a 500", async () => {
    const project = hangar.project(HANGAR.viaVersion);
    const namespace = project.namespace;
    project.namespace = "ViaVersion";
    try {
      const answer = await call("GET", `/projects/${VIAVERSION}?source=hangar`);
      expect(answer.body.error).toMatchObject({ code: "ErrModSourceUnavailable", metadata: { source: "Hangar" } });
    } finally {
      project.namespace = namespace;
    }
    project.mainPageContent = "x".repeat(9 * 1024 * 1024);
    try {
      const answer = await call("GET", `/projects/${VIAVERSION}?source=hangar`);
      expect(answer.body.error).toMatchObject({ code: "ErrModSourceUnavailable", metadata: { source: "Hangar" } });
    } finally {
      project.mainPageContent = "# ViaVersion";
    }
  });

  test("a user without manageMods reaches no Hangar route", async () => {
    const user = await ctx.userWith(id, { viewServer: true, editServerData: true });
    const asked = hangar.requests.length;
    for (const [method, path, body] of [["GET", "/search?q=x&source=hangar"], ["GET", `/projects/${VIAVERSION}?source=hangar`], ["POST", "/plan", { source: "hangar", projectId: VIAVERSION }]] as const) {
      const answer = await call(method, path, body, user.token);
      expect({ path, status: answer.status }).toEqual({ path, status: 403 });
    }
    expect(hangar.requests.length).toBe(asked);
  });
});

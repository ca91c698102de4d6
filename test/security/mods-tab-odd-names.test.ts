// Attack, through the Mods tab: a server's process names a mod so that the tab hides it or its
// controls miss it: bytes that are not UTF-8 (shown as nothing, or as another name) and a line
// break (a browser sends it back as CR LF, naming no file). The tab shows each name with visible
// escapes, and its plain forms (the tab without script) disable and remove that exact file.
import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { fabricStandIn, modrinthPanelForFile } from "../helpers/mods";
import { formInit, type PanelWithNode } from "../helpers/panel-node";
import { eventually } from "../helpers/node";
import { hasRestic } from "../helpers/require-part";
import { writeAsProcess } from "../helpers/process-names";
import { nameFromBytes } from "../../core/files/raw-name";
import { formName } from "../../core/files/form-name";

const resticHere = hasRestic();
const { ctx: panel } = await modrinthPanelForFile();
let ctx: PanelWithNode;
let id: string;
const RAW = Buffer.concat([Buffer.from("evil"), Buffer.from([0xff]), Buffer.from(".jar")]);
const LINE = "line\nbreak.jar";
const inMods = (name: Buffer | string) => Buffer.concat([Buffer.from(`${ctx.node.folder(id)}/mods/`), Buffer.from(name)]);
/** What a browser sends: every line break in a field as CR LF (HTML's form submission). */
const asBrowser = (fields: Record<string, string>) => Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, value.replace(/\r\n|\r|\n/g, "\r\n")]));
const post = (path: string, fields: Record<string, string>) => ctx.panel.request(`/server/${id}/mods/${path}`, { token: ctx.admin.token, ...formInit(asBrowser(fields)) });

describe.skipIf(!resticHere)("mods a server's process named, on the Mods tab without script", () => {
  beforeAll(async () => {
    ctx = panel();
    ({ id } = await fabricStandIn(ctx, "Odd mods", "1.20.4"));
    await writeAsProcess(ctx.node.folder(id), [{ path: "mods" }, { path: Buffer.concat([Buffer.from("mods/"), RAW]), content: "raw" }, { path: `mods/${LINE}`, content: "line" }]);
  }, 60_000);

  test("each is shown with its escapes, and its forms name it apart", async () => {
    const { html } = await ctx.page(`/server/${id}?tab=mods`, ctx.admin.token);
    expect(html).toContain("evil<mark");
    expect(html).toContain("\\xFF");
    expect(html).toContain("line<mark");
    expect(html).toContain(`name="fileName" value="${formName(LINE)}"`);
    expect(html).toContain(`name="fileName" value="${nameFromBytes(RAW)}"`);
  }, 30_000);

  test("the plain forms disable and remove that exact file", async () => {
    expect((await post("enabled", { fileName: formName(LINE), enabled: "false" })).status).toBe(303);
    await eventually(async () => existsSync(inMods(`${LINE}.disabled`)), 30_000, "the file disabled");
    const planned = await (await post("remove", { fileName: formName(nameFromBytes(RAW)) })).text();
    const apply = /<form[^>]*action="([^"]+\/apply)"[^>]*method="post"/.exec(planned)?.[1];
    expect(apply).toBeString();
    expect((await ctx.panel.request(apply!, { token: ctx.admin.token, ...formInit({}) })).status).toBe(303);
    await eventually(async () => !existsSync(inMods(RAW)), 30_000, "the file removed");
    expect(existsSync(inMods(`${LINE}.disabled`))).toBe(true);
  }, 60_000);
});

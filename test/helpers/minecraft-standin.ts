// A Minecraft Java server stand-in for player management tests: a template of type minecraft-java
// whose process is test/fixtures/minecraft-console/fake-minecraft.sh (it answers console commands
// as vanilla does and logs what it was given), and a server made from it with that script.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { putTemplate } from "../../server/services/templates";
import { echoTemplate } from "./node";
import { jsonInit, type PanelWithNode } from "./panel-node";
import { writeFiles } from "./file-tree";

const SCRIPT = readFileSync(join(import.meta.dir, "..", "fixtures", "minecraft-console", "fake-minecraft.sh"), "utf8");

/** Stores the stand-in template and makes a server of it; answers its id and folder. */
export async function minecraftStandIn(ctx: PanelWithNode, name: string): Promise<{ id: string; folder: string }> {
  await putTemplate(ctx.panel.db, "mc-standin", { ...echoTemplate({ command: "sh fake-minecraft.sh", stop: "stop" }), name: "mc-standin", display: "Minecraft stand-in", type: "minecraft-java", install: [] });
  const res = await ctx.panel.request("/api/servers", { token: ctx.admin.token, ...jsonInit("POST", { name, node: ctx.nodeId, template: "mc-standin", environment: { type: "standard" } }) });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${await res.text()}`);
  const id = ((await res.json()) as { id: string }).id;
  const folder = ctx.node.folder(id);
  writeFiles(folder, { "fake-minecraft.sh": SCRIPT });
  return { id, folder };
}

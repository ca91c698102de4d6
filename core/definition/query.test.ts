// The template's `query`: Kiln's types and GameDig ids with a port number or a variable; PufferPanel
// v3's own field read as written; refusals name the field.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { templateSchema } from "./template";
import { templateFieldError } from "./template-errors";
import { importTemplate } from "./import";

/** PufferPanel's own v3 templates, beside the checkout (../shared/fixtures; see its README). */
const V3_MINECRAFT = join(import.meta.dir, "..", "..", "..", "shared", "fixtures", "pufferpanel-templates", "v3", "minecraft", "minecraft.json");

const base = { display: "x", run: { command: "x" } };

describe("query", () => {
  test("a type, and a port as a number or a text naming variables", () => {
    expect(templateSchema.parse({ ...base, query: { type: "minecraft" } }).query).toEqual({ type: "minecraft" });
    expect(templateSchema.parse({ ...base, query: { type: "valve", port: 27015 } }).query).toEqual({ type: "valve", port: 27015 });
    expect(templateSchema.parse({ ...base, query: { type: "minecraft-query", port: "${query_port}" } }).query).toEqual({ type: "minecraft-query", port: "${query_port}" });
  });

  test("refusals name the field", () => {
    for (const query of [{}, { type: "" }, { type: "Mine craft;" }, { type: "minecraft", port: 0 }, { type: "minecraft", port: 70000 }, { type: "minecraft", port: 1.5 }, "minecraft"]) {
      const parsed = templateSchema.safeParse({ ...base, query });
      expect(parsed.success).toBe(false);
      expect(String(templateFieldError(parsed.error!).metadata?.field)).toStartWith("query");
    }
  });

  test.skipIf(!existsSync(V3_MINECRAFT))("PufferPanel v3's minecraft template keeps its query", () => {
    const { format, template } = importTemplate(JSON.parse(readFileSync(V3_MINECRAFT, "utf8")));
    expect(format).toBe("v3");
    expect(templateSchema.parse(template).query).toEqual({ type: "minecraft" });
  });
});

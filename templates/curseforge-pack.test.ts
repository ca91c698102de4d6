import { describe, expect, test } from "bun:test";
import { curseforgePackVariables, javaForMinecraft } from "../core/definition/curseforge-pack";
import { templateSchema } from "../core/definition/template";
import { SHIPPED_TEMPLATE_SOURCES } from "./index";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { importTemplate } from "../core/definition/import";

const install = (steps: unknown[]) => templateSchema.parse({ run: { command: "true" }, install: steps }).install;

describe("curseforgePackVariables", () => {
  test("Kiln's template: project, file and Java each one variable", () => {
    expect(curseforgePackVariables(templateSchema.parse(SHIPPED_TEMPLATE_SOURCES["minecraft-curseforge"]).install)).toEqual({ projectId: "projectId", fileId: "fileId", java: "java" });
  });

  // The official template as users bring it (../shared/fixtures, next to the repository).
  const official = join(import.meta.dir, "../../shared/fixtures/pufferpanel-templates/v3/minecraft-curseforge/minecraft-curseforge.json");
  test.skipIf(!existsSync(official))("PufferPanel's own minecraft-curseforge template, imported", () => {
    const file = official;
    const imported = templateSchema.parse(importTemplate(JSON.parse(readFileSync(file, "utf8"))).template);
    expect(curseforgePackVariables(imported.install)).toEqual({ projectId: "projectId", fileId: "fileId", java: "javaversion" });
  });

  test("a step whose project or file is fixed, or text around a variable, names nothing to set; Java may be left unnamed", () => {
    expect(curseforgePackVariables(install([{ type: "curseforge", projectId: "123", fileId: "${file}" }]))).toBeNull();
    expect(curseforgePackVariables(install([{ type: "curseforge", projectId: "${p}x", fileId: "${file}" }]))).toBeNull();
    expect(curseforgePackVariables(install([{ type: "command", commands: ["true"] }]))).toBeNull();
    expect(curseforgePackVariables(install([{ type: "curseforge", projectId: "${p}", fileId: "${f}" }]))).toEqual({ projectId: "p", fileId: "f", java: null });
  });
});

test("javaForMinecraft follows Mojang's requirements; a snapshot name keeps the template's choice", () => {
  expect(["1.12.2", "1.16.5", "1.17", "1.18.2", "1.20.4", "1.20.5", "1.21.1", "23w31a", "1.20.1-pre1"].map(javaForMinecraft)).toEqual([8, 8, 17, 17, 17, 21, 21, null, null]);
});

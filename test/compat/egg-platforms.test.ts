// What an egg's servers run, read from where its install script downloads them (core/definition/
// egg-addons), on the eggs Pterodactyl and Pelican publish (../shared/fixtures/eggs, read from
// there: they are not part of Kiln). Each known platform's egg states it with the variable that
// holds its Minecraft version; an egg of a server Kiln's browser does not know (Folia, a proxy,
// Bedrock) states nothing; no statement ever names a variable the template lacks.
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { importTemplate } from "../../core/definition/import";
import { eggVersion } from "../../core/definition/egg";
import { versionVariable, type AddonsStatement } from "../../core/definition/addons";
import { partAvailable } from "../helpers/require-part";

const EGGS = resolve(import.meta.dir, "../../../shared/fixtures/eggs");
const JAVA = join(EGGS, "minecraft", "java");
const present = partAvailable("the public eggs (../shared/fixtures/eggs)", () => existsSync(JAVA));

const read = (path: string) => JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
const converted = (path: string) => importTemplate(read(path));

describe.if(present)("an egg's platform, from its install script", () => {
  const EXPECTED: Array<[string, { platform: string; gameVersion?: string } | undefined]> = [
    ["paper/pterodactyl-egg-paper.json", { platform: "paper", gameVersion: "${MINECRAFT_VERSION}" }],
    ["purpur/egg-pterodactyl-purpur.json", { platform: "purpur", gameVersion: "${MINECRAFT_VERSION}" }],
    ["purpur/egg-purpur.json", { platform: "purpur", gameVersion: "${MINECRAFT_VERSION}" }],
    ["fabric/egg-pterodactyl-fabric.json", { platform: "fabric", gameVersion: "${MC_VERSION}" }],
    ["fabric/egg-fabric.json", { platform: "fabric", gameVersion: "${MC_VERSION}" }],
    ["quilt/egg-pterodactyl-quilt.json", { platform: "quilt", gameVersion: "${MC_VERSION}" }],
    ["forge/pterodactyl-egg-forge-minecraft.json", { platform: "forge", gameVersion: "${MC_VERSION}" }],
    ["neoforge/egg-pterodactyl-neo-forge.json", { platform: "neoforge", gameVersion: "${MC_VERSION}" }],
    ["vanilla/pterodactyl-egg-vanilla-minecraft.json", { platform: "vanilla", gameVersion: "${VANILLA_VERSION}" }],
    ["spigot/egg-pterodactyl-spigot.json", { platform: "spigot", gameVersion: "${DL_VERSION}" }],
    // Paper's build service, another project: not a platform the browser knows.
    ["folia/egg-pterodactyl-folia.json", undefined],
  ];

  for (const [file, expected] of EXPECTED) {
    test(file, () => {
      const { template, notes } = converted(join(JAVA, file));
      expect(template.addons).toEqual(expected as never);
      expect(notes.some((note) => note.rule === "eggPlatform")).toBe(expected !== undefined);
    });
  }

  test("across every published egg: a statement names one of the template's own variables, and only Minecraft eggs state one", () => {
    let stated = 0;
    const walk = (folder: string) => {
      for (const entry of readdirSync(folder, { withFileTypes: true })) {
        const path = join(folder, entry.name);
        if (entry.isDirectory() && !entry.name.startsWith(".")) walk(path);
        else if (entry.name.endsWith(".json")) {
          let egg: Record<string, unknown>;
          try {
            egg = read(path);
          } catch {
            continue;
          }
          if (!eggVersion(egg)) continue;
          let template;
          try {
            template = importTemplate(egg).template;
          } catch {
            continue; // an egg Kiln refuses is the egg harness's subject (test/compat/eggs)
          }
          if (!template.addons) continue;
          stated++;
          expect({ path, minecraft: /minecraft/i.test(path) }).toEqual({ path, minecraft: true });
          const variable = versionVariable(template.addons as AddonsStatement);
          if (variable) expect({ path, has: Object.hasOwn((template.data ?? {}) as object, variable) }).toEqual({ path, has: true });
        }
      }
    };
    for (const name of readdirSync(EGGS)) if (statSync(join(EGGS, name)).isDirectory()) walk(join(EGGS, name));
    expect(stated).toBeGreaterThan(10);
  });
});

import { expect, test } from "bun:test";
import { KilnError } from "../../../core/errors";
import { modpackFromText } from "./new-server-pack";

test("a modpack's text: Modrinth's and CurseForge's page addresses, a Modrinth id; nothing else", () => {
  expect(modpackFromText("  ")).toBeNull();
  expect(modpackFromText("https://modrinth.com/modpack/fabulously-optimized/version/abc123")).toEqual({ source: "modrinth", projectId: "fabulously-optimized", versionId: "abc123" });
  expect(modpackFromText("AANobbMI")).toEqual({ source: "modrinth", projectId: "AANobbMI" });
  expect(modpackFromText("https://www.curseforge.com/minecraft/modpacks/all-the-mods-9")).toEqual({ source: "curseforge", projectId: "all-the-mods-9" });
  expect(modpackFromText("https://curseforge.com/minecraft/modpacks/all-the-mods-9/files/5125809?x=1")).toEqual({ source: "curseforge", projectId: "all-the-mods-9", versionId: "5125809" });
  for (const text of ["https://curseforge.com.evil.example/minecraft/modpacks/x", "https://www.curseforge.com/minecraft/mc-mods/jei", "../x", "a b", "https://evil.example/modpack/x"]) {
    expect(() => modpackFromText(text), text).toThrow(KilnError);
  }
});

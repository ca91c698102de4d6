// Every source's categories are named in the panel's words: the browser shows `mods.category.<name>`.
import { expect, test } from "bun:test";
import en from "./en.json";
import { ALL_CATEGORIES, categoriesOf } from "../core/mods/categories";
import { BROWSE_SOURCES } from "../core/mods/types";

test("each category a source offers has its sentence in English (and so in every locale the checks hold to it)", () => {
  const keys = en as Record<string, string>;
  expect(ALL_CATEGORIES.filter((name) => !keys[`mods.category.${name}`])).toEqual([]);
  // Hangar's own are offered on Paper's servers, beside Modrinth's.
  expect(categoriesOf("hangar")).toContain("admin_tools");
  // CurseForge's come from its API (test/mods-curseforge); Spiget takes none.
  expect(BROWSE_SOURCES.filter((source) => categoriesOf(source).length === 0)).toEqual(["curseforge", "spiget"]);
});

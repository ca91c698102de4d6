// Theme packages (a tar with theme.json, theme.css and assets), built once from
// static/themes/<name>/ and served as /theme/<name>.tar.
import { z } from "../../core/zod";
import { createTar } from "../../core/tar";
import { makeAsset, type Asset } from "../assets";
import { THEME_COLOR_KEYS, themeVariablesCss } from "../../core/themes";

export const DEFAULT_THEME = "kiln";

const palette = z.object(Object.fromEntries(THEME_COLOR_KEYS.map((k) => [k, z.string().check(z.regex(/^#[0-9a-fA-F]{3,8}$/))])) as Record<(typeof THEME_COLOR_KEYS)[number], z.ZodMiniString>);
const themeJson = z.object({
  name: z.string().check(z.regex(/^[a-z0-9-]+$/)),
  display: z.string().check(z.minLength(1)),
  colors: z.object({ light: palette, dark: palette }),
});
export type ThemeJson = z.infer<typeof themeJson>;

export interface Theme {
  name: string;
  display: string;
  json: ThemeJson;
  /** theme.json colours as CSS variables, followed by theme.css: what a first paint needs. */
  css: string;
  tar: Asset;
}

export class Themes {
  /** The themes' names, in order (the themes are loaded once, at start). */
  readonly names: readonly string[];

  constructor(private readonly byName: Map<string, Theme>) {
    // Not frozen: JavaScriptCore stringifies a frozen array about four times slower (the public config sends it).
    this.names = [...byName.keys()];
  }

  list(): Theme[] {
    return [...this.byName.values()];
  }
  get(name: string | undefined): Theme | undefined {
    return name === undefined ? undefined : this.byName.get(name);
  }
  /** The first of the names that exists, else the default theme. */
  pick(...names: (string | undefined)[]): Theme {
    for (const n of names) {
      const theme = this.get(n);
      if (theme) return theme;
    }
    return this.byName.get(DEFAULT_THEME) ?? this.list()[0]!;
  }
}

/** `statics` is the static folder, keyed by path relative to it. */
export function loadThemes(statics: Map<string, Asset>): Themes {
  const folders = new Map<string, { name: string; data: Uint8Array }[]>();
  for (const [path, asset] of statics) {
    const match = /^themes\/([a-z0-9-]+)\/(.+)$/.exec(path);
    if (!match) continue;
    const [, theme, file] = match as unknown as [string, string, string];
    const list = folders.get(theme) ?? [];
    list.push({ name: file, data: asset.body });
    folders.set(theme, list);
  }
  const themes = new Map<string, Theme>();
  for (const [name, files] of [...folders].sort(([a], [b]) => (a === DEFAULT_THEME ? -1 : b === DEFAULT_THEME ? 1 : a.localeCompare(b)))) {
    const jsonFile = files.find((f) => f.name === "theme.json");
    if (!jsonFile) throw new Error(`theme ${name} has no theme.json`);
    const json = themeJson.parse(JSON.parse(new TextDecoder().decode(jsonFile.data)));
    if (json.name !== name) throw new Error(`theme folder ${name} holds theme.json named ${json.name}`);
    const css = new TextDecoder().decode(files.find((f) => f.name === "theme.css")?.data ?? new Uint8Array());
    // theme.json first: the browser reads it before anything else.
    const ordered = [jsonFile, ...files.filter((f) => f !== jsonFile).sort((a, b) => a.name.localeCompare(b.name))];
    themes.set(name, {
      name,
      display: json.display,
      json,
      css: `${themeVariablesCss(json.colors)}\n${css}`,
      tar: makeAsset(createTar(ordered), "application/x-tar"),
    });
  }
  if (themes.size === 0) throw new Error("no themes found in static/themes");
  return new Themes(themes);
}

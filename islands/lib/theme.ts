// Applying themes and dark mode in the browser. A theme arrives as /theme/<name>.tar, read block by
// block; its theme.json colours and theme.css replace the theme style the server rendered.
import { readTar } from "../../core/tar";
import { themeVariablesCss, type Palette } from "../../core/themes";

export const THEME_STYLE_ID = "kiln-theme";
export const DARK_STORAGE_KEY = "kiln.dark";
export const THEME_STORAGE_KEY = "kiln.theme";

export async function applyTheme(name: string): Promise<void> {
  const response = await fetch(`/theme/${encodeURIComponent(name)}.tar`);
  if (!response.ok) throw new Error(`theme ${name}: HTTP ${response.status}`);
  const files = readTar(new Uint8Array(await response.arrayBuffer()));
  const text = (file: string) => {
    const entry = files.find((f) => f.name === file);
    return entry ? new TextDecoder().decode(entry.data) : "";
  };
  const json = JSON.parse(text("theme.json")) as { colors: { light: Palette; dark: Palette } };
  const style = document.getElementById(THEME_STYLE_ID) ?? document.head.appendChild(document.createElement("style"));
  style.id = THEME_STYLE_ID;
  style.textContent = `${themeVariablesCss(json.colors)}\n${text("theme.css")}`;
  document.documentElement.dataset.theme = name;
}

/** The dark state in effect: the explicit class, else the system preference. */
export function isDarkNow(): boolean {
  const cls = document.documentElement.classList;
  if (cls.contains("dark")) return true;
  if (cls.contains("light")) return false;
  return matchMedia("(prefers-color-scheme: dark)").matches;
}

export function applyDark(dark: boolean): void {
  const cls = document.documentElement.classList;
  cls.toggle("dark", dark);
  cls.toggle("light", !dark);
}

/** Logged out, preferences live in local storage, mirrored to a cookie so the
 * server renders the next page in the same colours without a flash. */
export function rememberLocally(storageKey: string, cookie: string, value: string): void {
  try {
    localStorage.setItem(storageKey, value);
  } catch {
    // storage may be disabled; the cookie still carries the choice
  }
  document.cookie = `${cookie}=${encodeURIComponent(value)}; path=/; max-age=31536000; samesite=strict`;
}

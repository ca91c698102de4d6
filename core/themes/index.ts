// The colour slots a theme defines and how they become CSS variables; shared by server and browser.
export const THEME_COLOR_KEYS = [
  "primary",
  "onPrimary",
  "background",
  "surface",
  "surfaceAlt",
  "text",
  "muted",
  "border",
  "error",
  "success",
  "warning",
  "info",
] as const;

export type ThemeColorKey = (typeof THEME_COLOR_KEYS)[number];
export type Palette = Record<ThemeColorKey, string>;

function cssName(key: string): string {
  return `--k-${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

function block(selector: string, colors: Palette): string {
  return `${selector}{${THEME_COLOR_KEYS.map((k) => `${cssName(k)}:${colors[k]}`).join(";")}}`;
}

/** Light colours on :root; dark ones with the class "dark", or with no explicit choice ("light"
 * class absent) when the browser prefers dark. */
export function themeVariablesCss(colors: { light: Palette; dark: Palette }): string {
  return [
    block(":root", colors.light),
    block(":root.dark", colors.dark),
    `@media (prefers-color-scheme: dark){${block(":root:not(.light)", colors.dark)}}`,
  ].join("\n");
}

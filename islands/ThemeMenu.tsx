// Theme menu: a dark-mode switch and a radio list of themes, or a plain dark
// toggle when only one theme exists. Without script it is a form posting to /prefs.
import { useState } from "react";
import { defineIsland } from "./define";
import { useT } from "./lib/i18n";
import { Icon } from "./lib/Icon";
import { check, darkMode, palette } from "./lib/icons";
import { apiOrReport } from "./lib/api";
import { showToast } from "./shell/toasts";
import { applyDark, applyTheme, isDarkNow, rememberLocally, DARK_STORAGE_KEY, THEME_STORAGE_KEY } from "./lib/theme";

export interface ThemeMenuProps {
  themes: { name: string; display: string }[];
  active: string;
  /** null: following the browser's preference */
  dark: boolean | null;
  loggedIn: boolean;
  /** where /prefs sends the browser back to when script is off */
  back: string;
}

function ThemeMenuView({ themes, active: initialActive, dark: initialDark, loggedIn, back }: ThemeMenuProps) {
  const t = useT();
  const [active, setActive] = useState(initialActive);
  const [dark, setDark] = useState(initialDark);

  async function toggleDark(event: React.MouseEvent) {
    event.preventDefault();
    const next = !isDarkNow();
    applyDark(next);
    setDark(next);
    if (loggedIn) await apiOrReport("PUT", "/api/userSettings/dark", { value: String(next) });
    else rememberLocally(DARK_STORAGE_KEY, "kiln_dark", next ? "1" : "0");
  }

  async function chooseTheme(event: React.MouseEvent, name: string) {
    event.preventDefault();
    if (name === active) return;
    try {
      await applyTheme(name);
    } catch {
      showToast(t("theme.loadFailed"), { error: true });
      return;
    }
    setActive(name);
    if (loggedIn) await apiOrReport("PUT", "/api/userSettings/preferredTheme", { value: name });
    else rememberLocally(THEME_STORAGE_KEY, "kiln_theme", name);
  }

  // What the form posts when script is off: the opposite of the server's idea of dark.
  const darkValue = dark === true ? "0" : "1";

  if (themes.length <= 1) {
    return (
      <form method="post" action="/prefs" className="theme-toggle">
        <input type="hidden" name="back" value={back} />
        <button type="submit" name="dark" value={darkValue} className="icon-btn" title={t("theme.toggleDark")} aria-label={t("theme.toggleDark")} onClick={toggleDark}>
          <Icon path={darkMode} />
        </button>
      </form>
    );
  }

  return (
    <details className="menu theme-menu">
      <summary className="icon-btn" title={t("theme.menu")} aria-label={t("theme.menu")}>
        <Icon path={palette} />
      </summary>
      <form method="post" action="/prefs" className="menu-panel">
        <input type="hidden" name="back" value={back} />
        <button type="submit" name="dark" value={darkValue} className="menu-row" role="switch" aria-checked={dark === true} onClick={toggleDark}>
          <Icon path={darkMode} />
          <span>{t("theme.darkMode")}</span>
          <span className={dark === true ? "switch on" : "switch"} aria-hidden="true" />
        </button>
        <div className="menu-label" id="theme-list-label">{t("theme.themes")}</div>
        <div role="radiogroup" aria-labelledby="theme-list-label">
          {themes.map((theme) => (
            <button
              key={theme.name}
              type="submit"
              name="theme"
              value={theme.name}
              className="menu-row"
              role="radio"
              aria-checked={theme.name === active}
              data-theme-option={theme.name}
              onClick={(e) => void chooseTheme(e, theme.name)}
            >
              <span className={theme.name === active ? "radio on" : "radio"} aria-hidden="true" />
              <span>{theme.display}</span>
              {theme.name === active ? <Icon path={check} size={18} /> : null}
            </button>
          ))}
        </div>
      </form>
    </details>
  );
}

export default defineIsland<ThemeMenuProps>({
  name: "ThemeMenu",
  component: ThemeMenuView,
  messages: ["theme."],
  hydrate: "interaction",
});

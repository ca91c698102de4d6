// Top bar: drawer button (phones), brand name, theme menu island, language picker.
import { Icon } from "../../islands/lib/Icon";
import { menu } from "../../islands/lib/icons";
import ThemeMenu from "../../islands/ThemeMenu";
import { usePage } from "../context";
import { Island } from "../components/Island";
import { LanguagePicker } from "./LanguagePicker";
import { DRAWER_OPEN_ID } from "./Drawer";

export function TopBar() {
  const page = usePage();
  return (
    <header className="topbar">
      {page.user ? (
        <label htmlFor={DRAWER_OPEN_ID} className="icon-btn drawer-open-btn" title={page.t("nav.menu")}>
          <Icon path={menu} label={page.t("nav.menu")} />
        </label>
      ) : null}
      <a className="brand" href={page.user ? "/server" : "/auth/login"}>
        <img src="/static/favicon.svg" alt="" width={26} height={26} />
        <span>{page.brand}</span>
      </a>
      <span className="spacer" />
      <Island
        island={ThemeMenu}
        props={{ themes: page.themes, active: page.theme.name, dark: page.dark ?? null, loggedIn: page.user !== null, back: page.backPath }}
      />
      <LanguagePicker />
    </header>
  );
}

// Side drawer: entries by scope, collapse control, logout. Works without script:
// two hidden checkboxes hold "open" (phones) and "collapsed" (desktop).
import { SCOPES, hasScope, type Scope } from "../../core/scopes";
import { Icon } from "../../islands/lib/Icon";
import * as icons from "../../islands/lib/icons";
import { usePage } from "../context";

export const DRAWER_OPEN_ID = "drawer-open";
export const DRAWER_COLLAPSE_ID = "drawer-collapse";

interface Entry {
  href: string;
  label: string;
  icon: string;
  hotkey: string;
  /** undefined: always shown; "admin": admins only; otherwise the scope (or admin) needed */
  needs?: Scope | "admin";
  /** other screens that belong to this entry (it shows as current on them) */
  also?: string[];
}

export const DRAWER_ENTRIES: Entry[] = [
  { href: "/account", label: "nav.account", icon: icons.account, hotkey: "g a" },
  { href: "/server", label: "nav.servers", icon: icons.servers, hotkey: "g s", needs: SCOPES.serversView },
  { href: "/node", label: "nav.nodes", icon: icons.nodes, hotkey: "g n", needs: SCOPES.nodesView },
  { href: "/user", label: "nav.users", icon: icons.users, hotkey: "g u", needs: SCOPES.usersView, also: ["/roles"] },
  { href: "/template", label: "nav.templates", icon: icons.templates, hotkey: "g t", needs: SCOPES.templatesView },
  { href: "/activity", label: "nav.activity", icon: icons.history, hotkey: "g y", needs: "admin" },
  { href: "/webhooks", label: "nav.webhooks", icon: icons.webhook, hotkey: "g w", needs: "admin" },
  { href: "/settings", label: "nav.settings", icon: icons.settings, hotkey: "g c", needs: "admin" },
];

/** `sharedServers`: someone given access to a server sees Servers even without servers.view. */
export function visibleEntries(scopes: readonly string[], sharedServers = false): Entry[] {
  return DRAWER_ENTRIES.filter(
    (e) => e.needs === undefined || (e.needs === SCOPES.serversView && sharedServers) || (e.needs === "admin" ? scopes.includes(SCOPES.admin) : hasScope(scopes, e.needs)),
  );
}

export function Drawer() {
  const page = usePage();
  const entries = visibleEntries(page.user?.scopes ?? [], page.sharedServers);
  return (
    <>
      <label htmlFor={DRAWER_OPEN_ID} className="drawer-scrim" aria-hidden="true" />
      <nav className="drawer" aria-label={page.t("nav.menu")}>
        <ul>
          {entries.map((e) => {
            // The add screens (/addserver, /addnode, /adduser, /addtemplate) belong to their list.
            const active = page.path === e.href || page.path.startsWith(`${e.href}/`) || page.path === `/add${e.href.slice(1)}` || (e.also ?? []).some((p) => page.path === p || page.path.startsWith(`${p}/`));
            return (
              <li key={e.href}>
                <a href={e.href} data-hotkey={e.hotkey} aria-current={active ? "page" : undefined} title={page.t(e.label)}>
                  <Icon path={e.icon} />
                  <span className="label">{page.t(e.label)}</span>
                  <kbd className="hint">{e.hotkey}</kbd>
                </a>
              </li>
            );
          })}
        </ul>
        <div className="drawer-foot">
          <form method="post" action="/auth/logout">
            <button type="submit" className="drawer-btn" title={page.t("nav.logout")}>
              <Icon path={icons.logout} />
              <span className="label">{page.t("nav.logout")}</span>
            </button>
          </form>
          <label htmlFor={DRAWER_COLLAPSE_ID} className="drawer-btn collapse-btn" title={page.t("nav.collapse")} data-drawer-collapse="">
            <Icon path={icons.chevronLeft} />
            <span className="label">{page.t("nav.collapse")}</span>
          </label>
        </div>
      </nav>
    </>
  );
}

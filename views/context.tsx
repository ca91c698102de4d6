// What every server-rendered component may read about the request being rendered.
import { createContext, useContext } from "react";
import type { Locale } from "../core/i18n/locales";
import type { Translate } from "../core/i18n/translate";
import type { AssetStore } from "../server/assets";
import type { Theme } from "../server/themes";
import type { SessionUser } from "../server/services/sessions";

export interface IslandUse {
  name: string;
  props: object;
}

export interface PageContextValue {
  t: Translate;
  locale: Locale;
  brand: string;
  user: SessionUser | null;
  path: string;
  /** Where preference forms (language, theme) send the user back: this page with its query, for a page that was asked for (GET). */
  backPath: string;
  assets: AssetStore;
  theme: Theme;
  themes: { name: string; display: string }[];
  /** true, false, or undefined to follow the browser's colour-scheme preference */
  dark: boolean | undefined;
  drawerCollapsed: boolean;
  /** the user has been given access to at least one server */
  sharedServers: boolean;
  /**
   * The user holds nothing (no scope, no shared server) and their address is not confirmed yet: a
   * share by that address is refused until it is, so "ask to be added" must say to confirm first:
   * that address (or, while the account holds a placeholder, the one waiting for its link); else null.
   */
  unconfirmedEmail: string | null;
  translationUrl: string;
  /** Filled while rendering: the islands this page rendered, in order, and the messages they need. */
  islands: IslandUse[];
  islandMessages: Set<string>;
  /** A toast to show once (set by a redirect that carried a flash). */
  flash?: { key: string; error?: boolean };
}

export const PageContext = createContext<PageContextValue | null>(null);

export function usePage(): PageContextValue {
  const page = useContext(PageContext);
  if (!page) throw new Error("usePage outside a rendered page");
  return page;
}

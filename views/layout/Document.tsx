// The HTML document around every page: head with the stylesheet and the active theme, the body,
// and (only when needed) the shell runtime and the island loader.
import type { ReactNode } from "react";
import { htmlLang, textDirection } from "../../core/i18n/locales";
import { usePage } from "../context";
import { IslandScripts } from "../components/IslandScripts";
import { Toasts } from "../components/Toasts";
import { THEME_STYLE_ID } from "../../islands/lib/theme";

/** `shell`: load the shell runtime (hotkeys, enhancements); bare pages such as warnings do without. */
export function Document({ title, children, bodyClass, shell = true }: { title: string; children: ReactNode; bodyClass?: string; shell?: boolean }) {
  const page = usePage();
  const htmlClass = page.dark === true ? "dark" : page.dark === false ? "light" : undefined;
  return (
    <html lang={htmlLang(page.locale)} dir={textDirection(page.locale)} className={htmlClass} data-theme={page.theme.name} data-locale={page.locale}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <title>{title === page.brand ? title : `${title} · ${page.brand}`}</title>
        <link rel="icon" href="/static/favicon.svg" type="image/svg+xml" />
        <link rel="stylesheet" href={page.assets.url("css")} />
        <style id={THEME_STYLE_ID} dangerouslySetInnerHTML={{ __html: page.theme.css }} />
      </head>
      <body className={bodyClass} data-session={page.user && !page.user.clientId ? "" : undefined}>
        {children}
        <Toasts />
        {shell ? <script type="module" src={page.assets.url("shell")} /> : null}
        <IslandScripts />
      </body>
    </html>
  );
}

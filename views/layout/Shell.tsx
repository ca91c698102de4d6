// The logged-in frame: top bar, side drawer, content.
import type { ReactNode } from "react";
import { usePage } from "../context";
import { Document } from "./Document";
import { TopBar } from "./TopBar";
import { Drawer, DRAWER_COLLAPSE_ID, DRAWER_OPEN_ID } from "./Drawer";
import { NoAccessNotice } from "./NoAccessNotice";

export function Shell({ title, children }: { title: string; children: ReactNode }) {
  const page = usePage();
  return (
    <Document title={title}>
      <a className="skip-link" href="#main">{page.t("app.skipToContent")}</a>
      {page.user ? (
        <>
          <input type="checkbox" id={DRAWER_OPEN_ID} className="drawer-state" aria-hidden="true" tabIndex={-1} />
          <input type="checkbox" id={DRAWER_COLLAPSE_ID} className="drawer-state" aria-hidden="true" tabIndex={-1} defaultChecked={page.drawerCollapsed} />
        </>
      ) : null}
      <div className={page.user ? "frame with-drawer" : "frame"}>
        <TopBar />
        {page.user ? <Drawer /> : null}
        <main id="main" className="content">
          <NoAccessNotice />
          {children}
        </main>
      </div>
    </Document>
  );
}

/** A page heading with room for actions on the right. */
export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="page-header">
      <h1>{title}</h1>
      {children ? <div className="page-actions">{children}</div> : null}
    </div>
  );
}

// One server: name with status dot and rename dialog, control bar,
// the socket warning, and the tabs. Everything but the live parts is server-rendered.
import type { ReactNode } from "react";
import type { ServerEntry, ServerAccess } from "../../../server/services/servers";
import type { AddonKind } from "../../../core/mods/types";
import { allows } from "../../../core/scopes/server-access";
import { Shell } from "../../layout/Shell";
import { usePage } from "../../context";
import { Island } from "../../components/Island";
import { Alert } from "../../components/Alert";
import { ConfirmActions, ModalDetails } from "../../components/Modal";
import { Icon } from "../../../islands/lib/Icon";
import { pencil } from "../../../islands/lib/icons";
import ServerStatus from "../../../islands/ServerStatus";
import ServerControls from "../../../islands/ServerControls";
import { SERVER_TABS, visibleTabs, type ServerTab } from "./tabs";

export interface ServerPageProps {
  server: ServerEntry;
  access: ServerAccess;
  tab: ServerTab;
  /** a failed form on this page, shown above the tabs */
  error?: string;
  /** the add-on folder the server's platform last showed: "plugins" names the mods tab Plugins */
  addonFolder?: AddonKind | null;
  children: ReactNode;
}

export function ServerPage({ server, access, tab, error, addonFolder, children }: ServerPageProps) {
  const { t } = usePage();
  const label = (id: ServerTab) => t(id === "mods" && addonFolder === "plugins" ? "server.tab.plugins" : `server.tab.${id}`);
  const tabs = visibleTabs(access, server.type);
  const canRename = allows(access, "editServerData");
  return (
    <Shell title={server.name}>
      <div className="page-header server-header">
        <div className="server-title">
          <Island island={ServerStatus} props={{ serverId: server.id }} />
          <h1 data-testid="server-name" title={server.name}>{server.name}</h1>
          {canRename ? (
            <ModalDetails summary={<Icon path={pencil} size={18} />} summaryClass="btn btn-icon" title={t("server.rename")} testId="rename">
              <form method="post" action={`/server/${server.id}/rename`} className="stack">
                <label className="field">
                  <span className="field-label">{t("servers.name")}</span>
                  <input type="text" name="name" required maxLength={64} defaultValue={server.name} dir="auto" />
                </label>
                <ConfirmActions cancel={t("common.cancel")} confirm={t("common.save")} kind="primary" />
              </form>
            </ModalDetails>
          ) : null}
        </div>
        <Island island={ServerControls} props={{ serverId: server.id, canStart: allows(access, "startServer"), canStop: allows(access, "stopServer"), canInstall: allows(access, "installServer") }} />
      </div>
      <p className="muted server-meta">
        <code>{server.address}</code> · {t("servers.node")} {server.nodeName} · <code>{server.id}</code>
      </p>
      {error ? <Alert kind="error">{error}</Alert> : null}
      <nav className="tabs server-tabs" aria-label={t("server.tabs")}>
        {SERVER_TABS.filter((x) => tabs.includes(x.id)).map((x) => (
          <a key={x.id} href={`/server/${server.id}?tab=${x.id}`} data-hotkey={x.hotkey} aria-current={x.id === tab ? "page" : undefined} title={`${label(x.id)} (${x.hotkey})`}>
            {label(x.id)}
          </a>
        ))}
      </nav>
      <section className="server-tab" data-tab={tab}>{children}</section>
    </Shell>
  );
}

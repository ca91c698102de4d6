// The server's status dot (green online, red offline, grey unknown
// before the first report) and the warning shown below the page header when the live socket
// has given up. Rendered grey on the server; the live connection is shared with the other
// islands of the page (lib/server-live).
import { useEffect, useState } from "react";
import { createPortal } from "react-dom";
import { defineIsland } from "./define";
import { useT } from "./lib/i18n";
import { Icon } from "./lib/Icon";
import { alert } from "./lib/icons";
import { useLiveView } from "./lib/server-live";

export interface ServerStatusProps {
  serverId: string;
}

const ALERT_SLOT_CLASS = "server-live-alert-slot";

/** The place for the socket warning: right after the page header (or after the island itself). */
function alertSlot(from: Element): HTMLElement {
  const anchor = from.closest(".page-header") ?? from;
  const next = anchor.nextElementSibling;
  if (next instanceof HTMLElement && next.classList.contains(ALERT_SLOT_CLASS)) return next;
  const slot = document.createElement("div");
  slot.className = ALERT_SLOT_CLASS;
  anchor.after(slot);
  return slot;
}

function ServerStatusView({ serverId }: ServerStatusProps) {
  const t = useT();
  const view = useLiveView(serverId);
  const [dot, setDot] = useState<HTMLSpanElement | null>(null);
  const [slot, setSlot] = useState<HTMLElement | null>(null);
  useEffect(() => {
    if (view.failed && dot && !slot) setSlot(alertSlot(dot));
  }, [view.failed, dot, slot]);

  const label = t(`serverStatus.${view.status}`);
  return (
    <>
      <span ref={setDot} className={`server-status-dot is-${view.status}`} role="img" aria-label={label} title={label} data-status={view.status} />
      {view.failed && slot
        ? createPortal(
            <div className="alert alert-warning server-socket-alert" role="alert">
              <Icon path={alert} size={20} />
              <div>{t("errors.ErrSocketFailed")}</div>
            </div>,
            slot,
          )
        : null}
    </>
  );
}

export default defineIsland<ServerStatusProps>({
  name: "ServerStatus",
  component: ServerStatusView,
  messages: ["serverStatus.", "errors.ErrSocketFailed"],
  hydrate: "load",
});

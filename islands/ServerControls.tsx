// The server's control bar (spec section 2, Server page; section 4 restart): Start when stopped,
// Restart when running, Stop, Kill and Install, each shown by permission. Every button sits in
// its own form posting to /server/{id}/power/{action}, so the bar works without script; once
// hydrated the forms go through the shared live connection instead.
import { useEffect, useRef, useState } from "react";
import { defineIsland } from "./define";
import { useT } from "./lib/i18n";
import { Icon } from "./lib/Icon";
import { download, play, restart, skull, stop } from "./lib/icons";
import { serverLive, useLiveView, type PowerAction } from "./lib/server-live";

export interface ServerControlsProps {
  serverId: string;
  canStart: boolean;
  canStop: boolean;
  canInstall: boolean;
}

/** How long a restart may show its loading state without seeing the server come back. */
export const RESTART_TIMEOUT_MS = 90_000;

const BUTTONS: { action: PowerAction; icon: string; hotkey?: string; className: string }[] = [
  { action: "start", icon: play, className: "btn btn-primary" },
  { action: "restart", icon: restart, hotkey: "r r", className: "btn" },
  { action: "stop", icon: stop, hotkey: "r s", className: "btn" },
  { action: "kill", icon: skull, hotkey: "r k", className: "btn btn-danger-text" },
  { action: "install", icon: download, hotkey: "r i", className: "btn" },
];

/** Restart in progress: done once the server has reported not running and then running again. */
type RestartPhase = null | "stopping" | "starting";

function ServerControlsView({ serverId, canStart, canStop, canInstall }: ServerControlsProps) {
  const t = useT();
  const view = useLiveView(serverId);
  const [phase, setPhase] = useState<RestartPhase>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  function endRestart() {
    clearTimeout(timer.current);
    setPhase(null);
  }

  // Follow the status the daemon reports through a restart.
  useEffect(() => {
    if (phase === "stopping" && view.status === "offline") setPhase("starting");
    else if (phase === "starting" && view.status === "online") endRestart();
  }, [phase, view.status]);

  // A refused message (ErrNoPermission, …) ends the loading state; the error itself is reported by server-live.
  useEffect(() => serverLive(serverId).on("error", () => endRestart()), [serverId]);
  useEffect(() => () => clearTimeout(timer.current), []);

  async function act(event: React.FormEvent, action: PowerAction) {
    event.preventDefault();
    const live = serverLive(serverId);
    if (action === "restart") {
      clearTimeout(timer.current);
      timer.current = setTimeout(endRestart, RESTART_TIMEOUT_MS);
      setPhase("stopping");
    }
    const ok = await live.send(action);
    if (!ok && action === "restart") endRestart();
  }

  const permitted: Record<PowerAction, boolean> = { start: canStart, restart: canStart, stop: canStop, kill: canStop, install: canInstall };
  // Before the first report every permitted button shows; a restart keeps its own button while the server is down.
  const shown = (action: PowerAction) => {
    if (!permitted[action]) return false;
    if (action === "start") return phase === null && view.status !== "online";
    if (action === "restart") return phase !== null || view.status !== "offline";
    return true;
  };

  return (
    <div className="server-controls" role="group" aria-label={t("controls.label")}>
      {BUTTONS.filter((b) => shown(b.action)).map(({ action, icon, hotkey, className }) => {
        const loading = action === "restart" && phase !== null;
        return (
          <form key={action} method="post" action={`/server/${encodeURIComponent(serverId)}/power/${action}`} onSubmit={(e) => void act(e, action)}>
            <button
              type="submit"
              className={loading ? `${className} is-loading` : className}
              data-hotkey={hotkey}
              data-action={action}
              disabled={view.installing || loading}
              aria-busy={loading || undefined}
              title={hotkey ? `${t(`controls.${action}`)} (${hotkey})` : undefined}
            >
              {loading ? <span className="server-controls-spinner" aria-hidden="true" /> : <Icon path={icon} size={20} />}
              <span>{t(`controls.${action}`)}</span>
            </button>
          </form>
        );
      })}
      {view.installing ? (
        <span className="badge badge-warn" role="status">
          {t("controls.installing")}
        </span>
      ) : null}
    </div>
  );
}

export default defineIsland<ServerControlsProps>({
  name: "ServerControls",
  component: ServerControlsView,
  messages: ["controls."],
  hydrate: "load",
});

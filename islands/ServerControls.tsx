// The server's control bar: Start when stopped,
// Restart when running, Stop, Kill and Install, each shown by permission. Every button sits in
// its own form posting to /server/{id}/power/{action}, so the bar works without script; once
// hydrated the forms go through the shared live connection instead.
// Kill ends the processes without saving, so it asks first (a <details>
// overlay whose confirm button lies below the bar, working without script too), and Stop and Kill
// are disabled while the server is known to be stopped. On phones the buttons show icons only,
// so the bar stays one row (the label stays the button's accessible name). Install asks first too
// (./controls/InstallDialog): it re-runs the install steps over the server's files.
import { useEffect, useRef, useState, type ReactNode } from "react";
import { defineIsland } from "./define";
import { useT } from "./lib/i18n";
import { Icon } from "./lib/Icon";
import { download, play, restart, skull, stop } from "./lib/icons";
import { serverLive, useLiveView } from "./lib/server-live";
import type { PowerAction } from "../core/contract/power-actions";
import { InstallDialog } from "./controls/InstallDialog";
import { DetailsDialog, DialogActions } from "./lib/Dialog";
import { KEEP_CHANGED } from "../core/install";

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

  // Where the bar ends, for the overlays of the page to open below it (static/css/servers.css).
  const bar = useRef<HTMLDivElement>(null);
  useEffect(() => placeOverlaysBelow(bar.current), []);

  async function act(event: React.FormEvent | null, action: PowerAction, data?: Record<string, unknown>) {
    event?.preventDefault();
    const live = serverLive(serverId);
    if (action === "restart") {
      clearTimeout(timer.current);
      timer.current = setTimeout(endRestart, RESTART_TIMEOUT_MS);
      setPhase("stopping");
    }
    const ok = await live.send(action, data);
    if (!ok && action === "restart") endRestart();
  }

  /** A power action sent from the Kill confirmation: the overlay closes first. */
  function confirmKill(event: React.FormEvent<HTMLFormElement>) {
    event.currentTarget.closest("details")?.removeAttribute("open");
    void act(event, "kill");
  }

  const permitted: Record<PowerAction, boolean> = { start: canStart, restart: canStart, stop: canStop, kill: canStop, install: canInstall };
  // Before the first report every permitted button shows; a restart keeps its own button while the server is down.
  const shown = (action: PowerAction) => {
    if (!permitted[action]) return false;
    if (action === "start") return phase === null && view.status !== "online" && view.status !== "starting";
    if (action === "restart") return phase !== null || view.status !== "offline";
    return true;
  };

  const stopped = view.status === "offline";
  return (
    <div ref={bar} className="server-controls" role="group" aria-label={t("controls.label")}>
      {BUTTONS.filter((b) => shown(b.action)).map(({ action, icon, hotkey, className }) => {
        const loading = action === "restart" && phase !== null;
        const label = t(`controls.${action}`);
        const disabled = view.installing || loading || ((action === "stop" || action === "kill") && stopped);
        const content: ReactNode = (
          <>
            {loading ? <span className="server-controls-spinner" aria-hidden="true" /> : <Icon path={icon} size={20} />}
            <span className="server-controls-label">{label}</span>
          </>
        );
        const common = { "data-hotkey": hotkey, "data-action": action, title: hotkey ? `${label} (${hotkey})` : label, "aria-label": label };
        if (action === "install" && !disabled) {
          return (
            <InstallDialog
              key={action}
              serverId={serverId}
              summary={content}
              summaryProps={common}
              className={className}
              onInstall={(keep) => void act(null, "install", { [KEEP_CHANGED]: keep })}
            />
          );
        }
        if (action === "kill" && !disabled) {
          return (
            <DetailsDialog key={action} className="server-kill" summary={content} summaryProps={{ className: `${className} server-kill-open`, role: "button", ...common }} title={t("controls.killTitle")}>
              <p>{t("controls.killText")}</p>
              <form method="post" action={`/server/${encodeURIComponent(serverId)}/power/kill`} onSubmit={confirmKill}>
                <DialogActions cancel={t("controls.killCancel")} confirm={label} kind="danger" confirmData={{ "data-confirm-kill": "" }} />
              </form>
            </DetailsDialog>
          );
        }
        return (
          <form key={action} method="post" action={`/server/${encodeURIComponent(serverId)}/power/${action}`} onSubmit={(e) => void act(e, action)}>
            <button type="submit" className={loading ? `${className} is-loading` : className} disabled={disabled} aria-busy={loading || undefined} {...common}>
              {content}
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

/** Keeps --server-controls-bottom at the bar's bottom edge in the page while the header changes size. */
function placeOverlaysBelow(bar: HTMLElement | null): (() => void) | undefined {
  if (!bar) return;
  const root = document.documentElement;
  const place = () => root.style.setProperty("--server-controls-bottom", `${Math.ceil(bar.getBoundingClientRect().bottom + window.scrollY)}px`);
  place();
  if (typeof ResizeObserver === "undefined") return;
  const observer = new ResizeObserver(place);
  observer.observe(bar.parentElement ?? bar);
  return () => observer.disconnect();
}

export default defineIsland<ServerControlsProps>({
  name: "ServerControls",
  component: ServerControlsView,
  messages: ["controls."],
  hydrate: "load",
});

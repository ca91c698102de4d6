// The card above the console that says why the server last stopped unasked (or its install
// failed): the cause in plain words, what to do, and where Kiln saw it (or, unrecognised, what it
// read). It follows the node's status through the page's one live connection, so it appears when
// the crash is named and goes at the next start; the node keeps the cause (core/crash), the page
// only shows it. Every value is rendered as text.
import { defineIsland } from "./define";
import { useT } from "./lib/i18n";
import { Icon } from "./lib/Icon";
import { alert } from "./lib/icons";
import { useLiveView } from "./lib/server-live";
import { renderMessage } from "../core/live/daemon-message";
import { causeMessage, fixMessage } from "../core/crash/message";
import type { CrashState } from "../core/crash/identify";
import type { Translate } from "../core/i18n/translate";

export interface CrashCauseProps {
  serverId: string;
}

const sourceName = (source: string, t: Translate) => (source === "console" ? t("daemon.crash.console") : source);

function where(crash: CrashState, t: Translate): string | null {
  if (crash.where?.line !== undefined) return t("crash.seenIn", { source: sourceName(crash.where.source, t), line: crash.where.line });
  // The console's lines are counted in the process's own output, the DAEMON lines left out.
  if (crash.where?.source === "console" && crash.where.fromEnd !== undefined) return t("crash.seenInOutput", { fromEnd: crash.where.fromEnd });
  if (crash.where?.fromEnd !== undefined) return t("crash.seenInFromEnd", { source: sourceName(crash.where.source, t), fromEnd: crash.where.fromEnd });
  if (crash.looked && crash.looked.length > 0) return t("crash.looked", { sources: crash.looked.map((l) => sourceName(l.source, t)) });
  return null;
}

function CrashCauseView({ serverId }: CrashCauseProps) {
  const t = useT();
  const { crash } = useLiveView(serverId);
  // An element of its own even when empty: hydration has something to match, so a status that
  // arrives before it (the socket is shared with the page's other islands) is an ordinary update.
  return <div className="crash-cause-slot">{crash ? <Card crash={crash} t={t} serverId={serverId} /> : null}</div>;
}

function Card({ crash, t, serverId }: { crash: CrashState; t: Translate; serverId: string }) {
  const place = where(crash, t);
  return (
    <div className="alert alert-error crash-cause" role="status" data-cause={crash.cause}>
      <Icon path={alert} size={20} />
      <div className="crash-cause-body">
        <strong>{t(crash.phase === "install" ? "crash.titleInstall" : "crash.title")}</strong>
        <p className="crash-cause-text">{renderMessage(causeMessage(crash), t)}</p>
        <p className="crash-cause-fix">
          <span className="crash-cause-label">{t("crash.fix")}</span> {renderMessage(fixMessage(crash), t)}
        </p>
        {place ? <p className="crash-cause-where">{place}</p> : null}
        {crash.afterChange ? (
          <p className="crash-cause-change" data-change={crash.afterChange.changeId}>
            {t("crash.afterAddonChange", { note: crash.afterChange.note })} <a href={`/server/${encodeURIComponent(serverId)}?tab=mods`}>{t("crash.undoChange")}</a>
          </p>
        ) : null}
        <p className="crash-cause-until">{t("crash.until")}</p>
      </div>
    </div>
  );
}

export default defineIsland<CrashCauseProps>({
  name: "CrashCause",
  component: CrashCauseView,
  messages: ["crash.", "daemon.crash."],
  hydrate: "load",
});

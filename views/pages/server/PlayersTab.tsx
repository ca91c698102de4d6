// Players tab (needs managePlayers; Minecraft Java servers only): who is online, with kick (and a
// reason) and op/deop; the whitelist with its on/off switch; operators; banned players; banned
// IP addresses. While the server runs each form becomes its console command, confirmed from the
// console's answer; while it is stopped the server's files are edited. Plain forms throughout,
// each ending in a redirect with a toast (or the tab again with the refusal): no script needed.
import type { PlayerEntry, PlayerList, PlayerListAnswer } from "../../../core/players/player-lists";
import { MAX_REASON_LENGTH } from "../../../core/players/player-input";
import { usePage } from "../../context";
import { Alert } from "../../components/Alert";

export interface PlayersTabProps {
  serverId: string;
  /** who is online (running); null when stopped; a message when the console's list failed */
  online: { online: number; max: number; players: { name: string }[] } | null | { error: string };
  lists: Record<PlayerList, PlayerListAnswer | { error: string }>;
}

const LIST_ORDER: PlayerList[] = ["whitelist", "ops", "bans", "ip-bans"];
/** The words of each list's buttons: bans are lifted ("Unban"), the rest removed. */
const WORDS: Record<PlayerList, { add: string; remove: string }> = {
  whitelist: { add: "players.add", remove: "players.remove" },
  ops: { add: "players.add", remove: "players.remove" },
  bans: { add: "players.ban", remove: "players.pardon" },
  "ip-bans": { add: "players.ban", remove: "players.pardon" },
};

export function PlayersTab({ serverId, online, lists }: PlayersTabProps) {
  const { t } = usePage();
  const base = `/server/${serverId}/players`;
  const ops = lists.ops;
  const isOp = (name: string) => "entries" in ops && ops.entries.some((entry) => entry.name?.toLowerCase() === name.toLowerCase());
  return (
    <div className="stack" data-testid="players">
      <section className="card stack" data-testid="players-online">
        <div className="card-head">
          <h2>{t("players.online.title")}</h2>
          {online && "online" in online ? <span className="badge badge-on">{t("players.online.count", { online: online.online, max: online.max })}</span> : null}
        </div>
        <p className="muted small">{online === null ? t("players.stoppedIntro") : t("players.runningIntro")}</p>
        {online !== null && "error" in online ? <Alert kind="warning">{online.error}</Alert> : null}
        {online && "players" in online ? (
          online.players.length === 0 ? (
            <p className="muted">{t("players.online.none")}</p>
          ) : (
            <ul className="list">
              {online.players.map((player) => (
                <li key={player.name} className="list-row player-row" data-testid="online-player">
                  <div><strong dir="ltr">{player.name}</strong></div>
                  <div className="player-actions">
                    <form method="post" action={`${base}/kick`} className="inline-form">
                      <input type="hidden" name="name" value={player.name} />
                      <label className="field">
                        <span className="sr-only">{t("players.reason")}</span>
                        <input type="text" name="reason" maxLength={MAX_REASON_LENGTH} placeholder={t("players.reason")} dir="auto" autoComplete="off" />
                      </label>
                      <button type="submit" className="btn btn-danger-text">{t("players.kick")}</button>
                    </form>
                    <form method="post" action={`${base}/ops/${isOp(player.name) ? "remove" : "add"}`}>
                      <input type="hidden" name="name" value={player.name} />
                      <button type="submit" className="btn">{t(isOp(player.name) ? "players.deop" : "players.op")}</button>
                    </form>
                  </div>
                </li>
              ))}
            </ul>
          )
        ) : null}
      </section>
      <div className="grid-2">
        {LIST_ORDER.map((list) => (
          <ListCard key={list} base={base} list={list} answer={lists[list]} />
        ))}
      </div>
    </div>
  );
}

function ListCard({ base, list, answer }: { base: string; list: PlayerList; answer: PlayerListAnswer | { error: string } }) {
  const { t } = usePage();
  const byIp = list === "ip-bans";
  const hasReason = list === "bans" || list === "ip-bans";
  return (
    <section className="card stack" data-testid={`players-${list}`}>
      <div className="card-head">
        <h2>{t(`players.${list}.title`)}</h2>
        {list === "whitelist" && "entries" in answer ? (
          <form method="post" action={`${base}/whitelist/enabled`} className="players-switch">
            <span className={answer.enabled ? "badge badge-on" : "badge"}>{t(answer.enabled ? "players.whitelist.on" : "players.whitelist.off")}</span>
            <input type="hidden" name="enabled" value={answer.enabled ? "false" : "true"} />
            <button type="submit" className="btn" data-testid="whitelist-switch">{t(answer.enabled ? "players.whitelist.turnOff" : "players.whitelist.turnOn")}</button>
          </form>
        ) : null}
      </div>
      <p className="muted small">{t(`players.${list}.intro`)}</p>
      <form method="post" action={`${base}/${list}/add`} className="inline-form" data-testid={`players-add-${list}`}>
        <label className="field">
          <span className="sr-only">{t(byIp ? "players.ip" : "players.name")}</span>
          <input type="text" name={byIp ? "ip" : "name"} required maxLength={byIp ? 45 : 36} placeholder={t(byIp ? "players.ip" : "players.name")} dir="ltr" autoComplete="off" spellCheck={false} />
        </label>
        {hasReason ? (
          <label className="field">
            <span className="sr-only">{t("players.reason")}</span>
            <input type="text" name="reason" maxLength={MAX_REASON_LENGTH} placeholder={t("players.reason")} dir="auto" autoComplete="off" />
          </label>
        ) : null}
        <button type="submit" className="btn btn-primary">{t(WORDS[list].add)}</button>
      </form>
      {"error" in answer ? (
        <Alert kind="warning">{answer.error}</Alert>
      ) : answer.entries.length === 0 ? (
        <p className="muted">{t("players.empty")}</p>
      ) : (
        <ul className="list">
          {answer.entries.map((entry) => (
            <EntryRow key={entry.ip ?? entry.uuid ?? entry.name} base={base} list={list} entry={entry} />
          ))}
        </ul>
      )}
    </section>
  );
}

function EntryRow({ base, list, entry }: { base: string; list: PlayerList; entry: PlayerEntry }) {
  const { t } = usePage();
  const value = list === "ip-bans" ? entry.ip : (entry.name ?? entry.uuid);
  if (!value) return null;
  return (
    <li className="list-row" data-testid="player-entry">
      <div>
        <strong dir="ltr">{value}</strong>
        {entry.reason ? <span className="muted small" dir="auto">{entry.reason}</span> : null}
        {list === "ops" && entry.level !== undefined ? <span className="muted small">{t("players.level", { level: entry.level })}</span> : null}
      </div>
      <form method="post" action={`${base}/${list}/remove`}>
        <input type="hidden" name={list === "ip-bans" ? "ip" : "name"} value={value} />
        <button type="submit" className="btn btn-danger-text">{t(WORDS[list].remove)}</button>
      </form>
    </li>
  );
}

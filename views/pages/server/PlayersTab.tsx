// Players tab (needs managePlayers; Minecraft Java servers only): who is online, with kick (and a
// reason) and op/deop; the whitelist with its on/off switch; operators; banned players; banned
// IP addresses. While the server runs each form becomes its console command, confirmed from the
// console's answer; while it is stopped the server's files are edited. Plain forms throughout,
// each ending in a redirect with a toast (or the tab again with the refusal): no script needed.
// Each list shows one page (services/players/tab), with its own search and pager in the address,
// so a list of any length costs a page. Every name and reason on it was written by the game, its
// plugins or a player, so each is shown by the rule of untrusted labels (islands/lib/ShownLabel:
// a bidi override or a zero-width character is marked, never drawn), and each form carries the
// entry's own value, exactly as the node gave it.
import type { PlayerEntry, PlayerList } from "../../../core/players/player-lists";
import { MAX_REASON_LENGTH } from "../../../core/players/player-input";
import { PLAYER_LIST_PAGE, tabParams } from "../../../core/players/list-page";
import { isKickPlayerName, isMinecraftName, isMinecraftPlayerName } from "../../../core/players/minecraft-name";
import { ShownLabel } from "../../../islands/lib/ShownLabel";
import type { ListView, OnlineView } from "../../../server/services/players/tab";
import { usePage } from "../../context";
import { Alert } from "../../components/Alert";
import { Pager } from "../../components/Pager";

export interface PlayersTabProps {
  serverId: string;
  /** who is online (running); null when stopped; a message when the console's list failed */
  online: OnlineView | null | { error: string };
  lists: Record<PlayerList, ListView | { error: string }>;
}

const LIST_ORDER: PlayerList[] = ["whitelist", "ops", "bans", "ip-bans"];
/** The words of each list's buttons: bans are lifted ("Unban"), the rest removed. */
const WORDS: Record<PlayerList, { add: string; remove: string }> = {
  whitelist: { add: "players.add", remove: "players.remove" },
  ops: { add: "players.add", remove: "players.remove" },
  bans: { add: "players.ban", remove: "players.pardon" },
  "ip-bans": { add: "players.ban", remove: "players.pardon" },
};

/** The tab's other figures (the pager, the online count, a level) are written in Latin digits: the count too, grouped as the language groups. */
const LATIN_DIGITS = { numberingSystem: "latn" } as Intl.NumberFormatOptions;

/** Each list's page and search as the address carries them (first page and no search left out). */
type ListState = Record<PlayerList, { page: number; search: string }>;

/** Each list's page and search as address parameters, `list` at `change` when given. */
function stateParams(state: ListState, list?: PlayerList, change?: { page: number; search: string }): URLSearchParams {
  const params = new URLSearchParams();
  for (const name of LIST_ORDER) {
    const { page, search } = name === list && change ? change : state[name];
    if (search) params.set(tabParams(name).search, search);
    if (page > 1) params.set(tabParams(name).page, String(page));
  }
  return params;
}

/** The tab's address with `list` at `change`, every other list where it is. */
function tabAddress(serverId: string, state: ListState, list: PlayerList, change: { page: number; search: string }): string {
  return `/server/${serverId}?${new URLSearchParams([["tab", "players"], ...stateParams(state, list, change)]).toString()}`;
}

/** Where a form of the tab posts: its address carries the lists' pages and searches, and the form's redirect keeps them (routes/server/tab-state). */
type Action = (path: string) => string;

export function PlayersTab({ serverId, online, lists }: PlayersTabProps) {
  const { t } = usePage();
  const state = Object.fromEntries(LIST_ORDER.map((list) => {
    const view = lists[list];
    return [list, "answer" in view ? { page: view.page, search: view.search } : { page: 1, search: "" }];
  })) as ListState;
  const kept = stateParams(state).toString();
  const action: Action = (path) => `/server/${serverId}/players/${path}${kept ? `?${kept}` : ""}`;
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
          online.unsplit !== undefined ? (
            <div className="stack" data-testid="online-unsplit">
              <p className="muted small">{t("players.online.unsplit", { online: online.online })}</p>
              <p><ShownLabel text={online.unsplit} hint={t("common.hiddenCharacters")} /></p>
            </div>
          ) : online.players.length === 0 ? (
            <p className="muted">{t("players.online.none")}</p>
          ) : (
            <>
              <ul className="list">
                {online.players.map((player, index) => (
                  <OnlineRow key={`${index}:${player.name}`} action={action} name={player.name} op={player.op} />
                ))}
              </ul>
              {online.online > online.players.length ? <p className="muted small">{t("players.online.more", { count: online.online - online.players.length })}</p> : null}
            </>
          )
        ) : null}
      </section>
      <div className="grid-2">
        {LIST_ORDER.map((list) => (
          <ListCard key={list} action={action} list={list} view={lists[list]} address={(change) => tabAddress(serverId, state, list, change)} hidden={hiddenState(state, list)} serverId={serverId} />
        ))}
      </div>
    </div>
  );
}

/**
 * One online player, with only the actions the game takes for that exact name: kick when `kick`
 * reads it unquoted as that name (core/players/minecraft-name: Floodgate's ".Steve" too), operator
 * when it is a Minecraft name (`op` looks the name up). A name either refuses (a "*Steve", a space,
 * a hidden character, one `kick` would read as a UUID) gets no button, never another name's:
 * "Console only", saying why.
 */
function OnlineRow({ action, name, op }: { action: Action; name: string; op: boolean }) {
  const { t } = usePage();
  const kick = isKickPlayerName(name);
  const operator = isMinecraftPlayerName(name);
  const why = [kick ? null : t("players.online.noKick"), operator ? null : t("players.online.noOp")].filter((text) => text !== null).join(" ");
  return (
    <li className="list-row player-row" data-testid="online-player">
      <div><strong><ShownLabel text={name} hint={t("common.hiddenCharacters")} /></strong></div>
      <div className="player-actions">
        {kick ? (
          <form method="post" action={action("kick")} className="inline-form">
            <input type="hidden" name="name" value={name} />
            <label className="field">
              <span className="sr-only">{t("players.reason")}</span>
              <input type="text" name="reason" maxLength={MAX_REASON_LENGTH} placeholder={t("players.reason")} dir="auto" autoComplete="off" />
            </label>
            <button type="submit" className="btn btn-danger-text">{t("players.kick")}</button>
          </form>
        ) : null}
        {operator ? (
          <form method="post" action={action(`ops/${op ? "remove" : "add"}`)}>
            <input type="hidden" name="name" value={name} />
            <button type="submit" className="btn">{t(op ? "players.deop" : "players.op")}</button>
          </form>
        ) : null}
        {why ? <span className="muted small" title={why} data-testid="console-only">{t("players.online.consoleOnly")}</span> : null}
      </div>
    </li>
  );
}

/** The other lists' page and search, kept by a list's search form (sent without script). */
function hiddenState(state: ListState, list: PlayerList): [string, string][] {
  return LIST_ORDER.filter((name) => name !== list).flatMap((name): [string, string][] => [
    ...(state[name].search ? [[tabParams(name).search, state[name].search] as [string, string]] : []),
    ...(state[name].page > 1 ? [[tabParams(name).page, String(state[name].page)] as [string, string]] : []),
  ]);
}

interface ListCardProps {
  serverId: string;
  action: Action;
  list: PlayerList;
  view: ListView | { error: string };
  address: (change: { page: number; search: string }) => string;
  hidden: [string, string][];
}

function ListCard({ serverId, action, list, view, address, hidden }: ListCardProps) {
  const { t } = usePage();
  const byIp = list === "ip-bans";
  const hasReason = list === "bans" || list === "ip-bans";
  const answer = "answer" in view ? view.answer : null;
  const total = answer ? (answer.total ?? answer.entries.length) : 0;
  const searchable = "answer" in view && (view.pages > 1 || view.search !== "");
  return (
    <section className="card stack" data-testid={`players-${list}`}>
      <div className="card-head">
        <h2>
          {t(`players.${list}.title`)}
          {"answer" in view && !view.search && total > 0 ? <> <span className="badge" data-testid="players-total">{total.toLocaleString(t.locale, LATIN_DIGITS)}</span></> : null}
        </h2>
        {list === "whitelist" && answer ? (
          <form method="post" action={action("whitelist/enabled")} className="players-switch">
            <span className={answer.enabled ? "badge badge-on" : "badge"}>{t(answer.enabled ? "players.whitelist.on" : "players.whitelist.off")}</span>
            <input type="hidden" name="enabled" value={answer.enabled ? "false" : "true"} />
            <button type="submit" className="btn" data-testid="whitelist-switch">{t(answer.enabled ? "players.whitelist.turnOff" : "players.whitelist.turnOn")}</button>
          </form>
        ) : null}
      </div>
      <p className="muted small">{t(`players.${list}.intro`)}</p>
      <form method="post" action={action(`${list}/add`)} className="inline-form" data-testid={`players-add-${list}`}>
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
      {"error" in view ? (
        <Alert kind="warning">{view.error}</Alert>
      ) : (
        <>
          {searchable ? (
            <form method="get" action={`/server/${serverId}`} className="inline-form players-search" role="search" data-testid={`players-search-${list}`}>
              <input type="hidden" name="tab" value="players" />
              {hidden.map(([name, value]) => <input key={name} type="hidden" name={name} value={value} />)}
              <label className="field">
                <span className="sr-only">{t("users.searchSubmit")}</span>
                <input type="search" name={tabParams(list).search} defaultValue={view.search} maxLength={PLAYER_LIST_PAGE.maxSearch} placeholder={t(byIp ? "players.ip" : "players.name")} dir="ltr" autoComplete="off" spellCheck={false} />
              </label>
              <button type="submit" className="btn">{t("users.searchSubmit")}</button>
              {view.search ? <a className="btn" href={address({ page: 1, search: "" })}>{t("users.clearSearch")}</a> : null}
            </form>
          ) : null}
          {view.answer.entries.length === 0 ? (
            <p className="muted">{t(view.search ? "templates.repoNoMatch" : "players.empty")}</p>
          ) : (
            <ul className="list players-list">
              {view.answer.entries.map((entry, i) => (
                <EntryRow key={`${i}:${entry.ip ?? entry.uuid ?? entry.name}`} action={action} list={list} entry={entry} />
              ))}
            </ul>
          )}
          <Pager page={view.page} pages={view.pages} link={(page) => address({ page, search: view.search })} />
        </>
      )}
    </section>
  );
}

/**
 * What a row's remove form sends: the entry's IP, else its name when a command can name it
 * (core/players/minecraft-name), else its UUID (a name the game's files hold but no command takes,
 * such as one a plugin wrote with a hidden character); null when neither would be taken.
 */
function removeValue(list: PlayerList, entry: PlayerEntry): string | null {
  if (list === "ip-bans") return entry.ip ?? null;
  if (isMinecraftName(entry.name)) return entry.name;
  return isMinecraftName(entry.uuid) ? entry.uuid : null;
}

function EntryRow({ action, list, entry }: { action: Action; list: PlayerList; entry: PlayerEntry }) {
  const { t } = usePage();
  const shown = list === "ip-bans" ? entry.ip : (entry.name ?? entry.uuid);
  if (!shown) return null;
  const hint = t("common.hiddenCharacters");
  const value = removeValue(list, entry);
  return (
    <li className="list-row" data-testid="player-entry">
      <div>
        <strong><ShownLabel text={shown} hint={hint} /></strong>
        {entry.reason ? <ShownLabel className="muted small" text={entry.reason} hint={hint} dir="auto" /> : null}
        {list === "ops" && entry.level !== undefined ? <span className="muted small">{t("players.level", { level: entry.level })}</span> : null}
      </div>
      {value === null ? null : (
        <form method="post" action={action(`${list}/remove`)}>
          <input type="hidden" name={list === "ip-bans" ? "ip" : "name"} value={value} />
          <button type="submit" className="btn btn-danger-text">{t(WORDS[list].remove)}</button>
        </form>
      )}
    </li>
  );
}

// The server console: the log with ANSI colours and DAEMON
// chips, pause/resume with a "new lines" dot, and the command input. The server renders the
// log it already has; once hydrated the island follows the live connection, refreshing the
// screen at most every 500 ms. Without script the command form posts to /server/{id}/console.
// A sent command is echoed on the console ("› command"), and ↑/↓ in the input walk
// back and forth through the commands sent from this tab (kept for the browser tab's session,
// since every tab of the server page is its own page load).
import { useEffect, useRef, useState } from "react";
import { defineIsland } from "./define";
import { useT } from "./lib/i18n";
import { Icon } from "./lib/Icon";
import { pause, play, send } from "./lib/icons";
import { ConsoleFeed, renderLines, renderLog, type ConsoleChanges } from "./lib/console-lines";
import { serverLive } from "./lib/server-live";

export interface ServerConsoleProps {
  serverId: string;
  canSend: boolean;
  /** The console text the page had when it was rendered (raw, with ANSI codes). */
  initialLogs: string;
  /** The epoch to replay from after hydrating (the answer that gave `initialLogs`). */
  initialEpoch: number;
}

/** Within this many pixels of the end counts as "at the bottom" (follow new lines). */
const BOTTOM_SLACK_PX = 8;

/** How many sent commands ↑ can bring back. */
export const HISTORY_SIZE = 100;
const historyKey = (serverId: string) => `kiln.consoleHistory.${serverId}`;

/** The echo of a sent command as console text: on a line of its own, in the terminal's cyan. */
export function echoLine(command: string, lineOpen: boolean): string {
  return `${lineOpen ? "\n" : ""}\x1b[36m› ${command}\x1b[0m\n`;
}

function loadHistory(serverId: string): string[] {
  try {
    const stored = JSON.parse(window.sessionStorage.getItem(historyKey(serverId)) ?? "[]");
    return Array.isArray(stored) ? stored.filter((c): c is string => typeof c === "string").slice(-HISTORY_SIZE) : [];
  } catch {
    return []; // storage off or unreadable: history starts empty
  }
}

function saveHistory(serverId: string, history: readonly string[]): void {
  try {
    window.sessionStorage.setItem(historyKey(serverId), JSON.stringify(history));
  } catch {
    // storage off: the history lasts for this page only
  }
}

function ServerConsoleView({ serverId, canSend, initialLogs, initialEpoch }: ServerConsoleProps) {
  const t = useT();
  // The same HTML on the server and at hydration; later lines go straight into the DOM.
  const [initialHtml] = useState(() => ({ __html: renderLog(initialLogs, t) }));
  const logRef = useRef<HTMLDivElement>(null);
  const feedRef = useRef<ConsoleFeed | null>(null);
  const [paused, setPaused] = useState(false);
  const [unseen, setUnseen] = useState(false);
  const id = `console-input-${serverId}`;
  // Sent commands, oldest first; `cursor` is where ↑/↓ stand (history.length: the line being typed).
  const history = useRef<string[]>([]);
  const cursor = useRef(0);
  const draft = useRef("");

  useEffect(() => {
    const log = logRef.current!;
    // Absolute line number of the first line shown; the screen mirrors the feed's buffer.
    let first = 0;
    const apply = (changes: ConsoleChanges) => {
      const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight <= BOTTOM_SLACK_PX;
      const shown = log.children.length;
      const dropFront = Math.min(Math.max(changes.start - first, 0), shown);
      const keep = Math.max(changes.from - Math.max(changes.start, first), 0);
      // Lines the buffer rewrote (an open last line that grew) go, then the new ones come.
      while (log.children.length > dropFront + keep) log.lastElementChild!.remove();
      for (let i = 0; i < dropFront; i++) log.firstElementChild!.remove();
      if (changes.lines.length > 0) log.insertAdjacentHTML("beforeend", renderLines(changes.lines, t));
      first = changes.start;
      if (atBottom) log.scrollTop = log.scrollHeight;
    };
    const feed = new ConsoleFeed({ apply, unseen: setUnseen });
    feedRef.current = feed;
    // The server rendered initialLogs already: take them as shown.
    feed.buffer.append(initialLogs);
    first = feed.buffer.takeChanges().start;
    log.scrollTop = log.scrollHeight;

    history.current = loadHistory(serverId);
    cursor.current = history.current.length;
    const live = serverLive(serverId);
    const off = live.on("console", (message) => feed.push(message.data?.logs ?? ""));
    void live.send("replay", { since: initialEpoch });
    return () => {
      off();
      feed.dispose();
      feedRef.current = null;
    };
  }, [serverId]);

  function togglePause() {
    const feed = feedRef.current;
    if (!feed) return;
    if (feed.paused) {
      feed.resume();
      setPaused(false);
      const log = logRef.current!;
      log.scrollTop = log.scrollHeight;
    } else {
      feed.pause();
      setPaused(true);
    }
  }

  function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const input = event.currentTarget.elements.namedItem("command") as HTMLInputElement;
    const command = input.value;
    if (!command.trim()) return;
    input.value = "";
    void serverLive(serverId).send("console", { command });
    const feed = feedRef.current;
    if (feed) {
      feed.push(echoLine(command, feed.buffer.lineOpen));
      // Sending is following: a paused console resumes to show the answer.
      if (feed.paused) togglePause();
    }
    if (history.current[history.current.length - 1] !== command) history.current = [...history.current, command].slice(-HISTORY_SIZE);
    cursor.current = history.current.length;
    draft.current = "";
    saveHistory(serverId, history.current);
  }

  /** ↑ brings back the previous command, ↓ the next (and finally what was being typed). */
  function browseHistory(event: React.KeyboardEvent<HTMLInputElement>) {
    if ((event.key !== "ArrowUp" && event.key !== "ArrowDown") || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const list = history.current;
    const input = event.currentTarget;
    if (cursor.current === list.length) draft.current = input.value;
    const next = event.key === "ArrowUp" ? Math.max(0, cursor.current - 1) : Math.min(list.length, cursor.current + 1);
    if (next === cursor.current) return;
    event.preventDefault();
    cursor.current = next;
    input.value = next === list.length ? draft.current : list[next]!;
    input.setSelectionRange(input.value.length, input.value.length);
  }

  const pauseLabel = paused ? t("console.resume") : t("console.pause");
  return (
    <section className="server-console" aria-label={t("console.title")}>
      <div className="server-console-bar">
        <button type="button" className="icon-btn server-console-pause" data-hotkey="c p" aria-pressed={paused} title={`${pauseLabel} (c p)`} aria-label={pauseLabel} onClick={togglePause}>
          <Icon path={paused ? play : pause} size={20} />
          {unseen ? <span className="server-console-dot" role="status" aria-label={t("console.newLines")} title={t("console.newLines")} /> : null}
        </button>
      </div>
      <div ref={logRef} className="server-console-log" role="log" aria-live="off" aria-label={t("console.log")} tabIndex={0} dangerouslySetInnerHTML={initialHtml} />
      {canSend ? (
        <form className="server-console-input" method="post" action={`/server/${encodeURIComponent(serverId)}/console`} onSubmit={submit}>
          <label htmlFor={id} className="sr-only" data-hotkey="c i">
            {t("console.command")}
          </label>
          <input id={id} type="text" name="command" dir="auto" autoComplete="off" spellCheck={false} placeholder={t("console.commandPlaceholder")} required onKeyDown={browseHistory} />
          <button type="submit" className="icon-btn" title={t("console.send")} aria-label={t("console.send")}>
            <Icon path={send} size={20} />
          </button>
        </form>
      ) : null}
    </section>
  );
}

export default defineIsland<ServerConsoleProps>({
  name: "ServerConsole",
  component: ServerConsoleView,
  // daemon. and errors.: the node's own console lines, said in the reader's language.
  messages: ["console.", "daemon.", "errors."],
  hydrate: "load",
});

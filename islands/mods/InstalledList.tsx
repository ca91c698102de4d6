// What is installed: each file in mods/ or plugins/ by its source's title (or its file name, when
// the source does not know it or did not answer), its version and size, an update when the source
// has a newer one for this server (Update makes the plan), the switch that disables it (renamed
// to .disabled, which the game skips) and Remove (its plan). Server-rendered with the page; each
// control is a form that works without script (./ActionForm), which the island takes over.
import type { AddonKind } from "../../core/mods/types";
import { formatBytes } from "../../core/units";
import { useT } from "../lib/i18n";
import { Icon } from "../lib/Icon";
import { restart as refreshIcon } from "../lib/icons";
import { Avatar } from "./Avatar";
import { ShownLabel } from "../lib/ShownLabel";
import { shownLabel } from "../../core/text/shown-label";
import { rawByteEscape, shownName } from "../../core/files/shown-name";
import { formName } from "../../core/files/form-name";
import { FileName } from "../files/FileName";
import type { InstalledEntry } from "./mods-api";
import { Notice } from "./Notice";
import { ActionForm, modsFormBase } from "./ActionForm";

export interface InstalledListProps {
  serverId: string;
  folder: AddonKind;
  /** null: not listed (error says why) */
  installed: readonly InstalledEntry[] | null;
  error: string | null;
  hydrated: boolean;
  /** files whose switch is being applied */
  busy: ReadonlySet<string>;
  onUpdate(entry: InstalledEntry): void;
  onRemove(entry: InstalledEntry): void;
  onSwitch(entry: InstalledEntry, enabled: boolean): void;
  onRefresh(): void;
}

/** Titles first, in a fixed order (the same on the server and in the browser, so hydration matches). */
const byName = (a: InstalledEntry, b: InstalledEntry) => {
  const [x, y] = [(a.title ?? a.fileName).toLowerCase(), (b.title ?? b.fileName).toLowerCase()];
  return x < y ? -1 : x > y ? 1 : 0;
};

export function InstalledList({ serverId, folder, installed, error, hydrated, busy, onUpdate, onRemove, onSwitch, onRefresh }: InstalledListProps) {
  const t = useT();
  const plugins = folder === "plugins";
  const files = installed ? [...installed].sort(byName) : [];
  return (
    <section className="card stack mods-installed" data-testid="mods-installed" aria-labelledby="mods-installed-title">
      <div className="card-head">
        <h2 id="mods-installed-title">
          {t(plugins ? "mods.installed.titlePlugins" : "mods.installed.titleMods")}
          {installed && installed.length > 0 ? <span className="badge mods-count">{installed.length}</span> : null}
        </h2>
        <a
          className="btn"
          href={`/server/${encodeURIComponent(serverId)}?tab=mods`}
          onClick={(e) => {
            if (!hydrated) return;
            e.preventDefault();
            onRefresh();
          }}
          data-testid="mods-refresh"
        >
          <Icon path={refreshIcon} size={18} />
          <span>{t("mods.installed.refresh")}</span>
        </a>
      </div>
      {error ? <Notice kind="warning">{error}</Notice> : null}
      {installed && installed.length === 0 ? <p className="muted">{t(plugins ? "mods.installed.emptyPlugins" : "mods.installed.emptyMods")}</p> : null}
      {files.length > 0 ? (
        <ul className="list mods-list">
          {files.map((entry) => (
            <Row key={entry.fileName} base={modsFormBase(serverId)} entry={entry} hydrated={hydrated} busy={busy.has(entry.fileName)} onUpdate={onUpdate} onRemove={onRemove} onSwitch={onSwitch} />
          ))}
        </ul>
      ) : null}
    </section>
  );
}

function Row({ base, entry, hydrated, busy, onUpdate, onRemove, onSwitch }: { base: string; entry: InstalledEntry; hydrated: boolean; busy: boolean } & Pick<InstalledListProps, "onUpdate" | "onRemove" | "onSwitch">) {
  const t = useT();
  const name = entry.title ?? entry.fileName;
  // In sentences (an aria-label), the title with its escapes: the source chose it. Without a
  // title the file's name stands for it, its bytes that are not UTF-8 escaped too (a .jar is
  // listed whatever its name: core/mods/change isInstalledFileName).
  const said = entry.title ? shownLabel(entry.title) : shownName(entry.fileName);
  const nameEscapes = entry.title ? undefined : rawByteEscape;
  const hint = t("common.hiddenCharacters");
  return (
    <li className={entry.enabled ? "list-row mods-row" : "list-row mods-row mods-row-disabled"} data-file={entry.fileName} data-testid="mods-row">
      <Avatar id={entry.projectId ?? entry.fileName} title={name} />
      <div className="mods-row-text">
        <strong className="mods-row-title"><ShownLabel text={name} hint={hint} extra={nameEscapes} dir="auto" /></strong>
        <span className="muted small">
          {entry.versionNumber ? <ShownLabel text={entry.versionNumber} hint={hint} /> : t("mods.installed.unknown")}
          {" · "}
          {formatBytes(entry.size, "decimal", 1, t.locale)}
        </span>
        {entry.title ? (
          <span className="muted small mods-file-name" dir="ltr">
            <FileName name={entry.fileName} />
          </span>
        ) : null}
        {!entry.enabled || entry.updateAvailable ? (
          <span className="mods-badges">
            {entry.enabled ? null : <span className="badge">{t("mods.installed.disabled")}</span>}
            {entry.updateAvailable ? (
              <span className="badge badge-warn" data-testid="mods-update-available">
                <bdi>{t("mods.installed.updateAvailable", { version: shownLabel(entry.updateAvailable.versionNumber) })}</bdi>
              </span>
            ) : null}
          </span>
        ) : null}
      </div>
      <div className="mods-row-actions">
        {entry.updateAvailable ? (
          <ActionForm action={`${base}/plan`} fields={{ source: entry.source, projectId: entry.projectId }} hydrated={hydrated} onAct={() => onUpdate(entry)}>
            <button type="submit" className="btn btn-primary" disabled={busy} aria-label={t("mods.installed.updateLabel", { title: said, version: shownLabel(entry.updateAvailable.versionNumber) })}>
              {t("mods.installed.update")}
            </button>
          </ActionForm>
        ) : null}
        <ActionForm action={`${base}/enabled`} fields={{ fileName: formName(entry.fileName), enabled: String(!entry.enabled) }} hydrated={hydrated} onAct={() => onSwitch(entry, !entry.enabled)}>
          <button
            type="submit"
            role="switch"
            className="mods-switch"
            aria-checked={entry.enabled}
            aria-label={t("mods.installed.switch", { title: said })}
            title={t(entry.enabled ? "mods.installed.enabled" : "mods.installed.disabled")}
            aria-busy={busy || undefined}
            disabled={busy}
            data-testid="mods-switch"
          >
            <span className={entry.enabled ? "switch on" : "switch"} />
          </button>
        </ActionForm>
        <ActionForm action={`${base}/remove`} fields={{ fileName: formName(entry.fileName) }} hydrated={hydrated} onAct={() => onRemove(entry)}>
          <button type="submit" className="btn btn-danger-text" disabled={busy} aria-label={t("mods.installed.removeLabel", { title: said })} data-testid="mods-remove">
            {t("mods.installed.remove")}
          </button>
        </ActionForm>
      </div>
    </li>
  );
}

// The control bar's Install: it asks first, as Kill does (a <details> overlay, so it works without
// script), says what an install does, and offers to keep the files changed since the last
// install (checked by default) or overwrite them. With script, opening it asks the node what it
// would keep and lists it; the choice goes out with the install message (core/install).
import { useState, type ReactNode } from "react";
import { BESIDE_SUFFIX, KEEP_CHANGED, type InstallChanges } from "../../core/install";
import { useT } from "../lib/i18n";
import { api } from "../lib/api";
import { serverLive } from "../lib/server-live";
import { DetailsDialog, DialogActions, type DataAttributes } from "../lib/Dialog";

export interface InstallDialogProps {
  serverId: string;
  /** The button that opens it, as the bar draws its buttons. */
  summary: ReactNode;
  summaryProps: DataAttributes & { title: string; "aria-label": string };
  className: string;
  onInstall(keepChanged: boolean): void;
}

type Listing = { state: "loading" } | { state: "failed" } | ({ state: "ready" } & InstallChanges);

export function InstallDialog({ serverId, summary, summaryProps, className, onInstall }: InstallDialogProps) {
  const t = useT();
  const [listing, setListing] = useState<Listing | null>(null);

  function opened(event: React.SyntheticEvent<HTMLDetailsElement>) {
    if (!event.currentTarget.open) return;
    setListing({ state: "loading" });
    api<InstallChanges>("GET", `${serverLive(serverId).httpBase}/install/changes`).then(
      (changes) => setListing({ state: "ready", ...changes }),
      () => setListing({ state: "failed" }),
    );
  }

  function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const keep = new FormData(event.currentTarget).get(KEEP_CHANGED) !== "false";
    event.currentTarget.closest("details")?.removeAttribute("open");
    onInstall(keep);
  }

  return (
    <DetailsDialog className="server-kill server-install" summary={summary} summaryProps={{ className: `${className} server-kill-open`, role: "button", ...summaryProps }} title={t("controls.installTitle")} onToggle={opened}>
      <form method="post" action={`/server/${encodeURIComponent(serverId)}/power/install`} onSubmit={submit} className="stack">
        <p>{t("controls.installText")}</p>
        <fieldset className="install-choice stack">
          <legend className="field-label">{t("controls.installChanged")}</legend>
          <label className="check-row">
            <input type="radio" name={KEEP_CHANGED} value="true" defaultChecked />
            <span>{t("controls.installKeep")}</span>
          </label>
          <label className="check-row">
            <input type="radio" name={KEEP_CHANGED} value="false" />
            <span>{t("controls.installOverwrite")}</span>
          </label>
        </fieldset>
        <ChangedList listing={listing} />
        <DialogActions cancel={t("controls.installCancel")} confirm={t("controls.install")} confirmData={{ "data-confirm-install": "" }} />
      </form>
    </DetailsDialog>
  );
}

/** What the node would keep, once asked; without script the dialog says it in general terms. */
function ChangedList({ listing }: { listing: Listing | null }) {
  const t = useT();
  if (listing === null) return <p className="muted small">{t("controls.installKeepHint")}</p>;
  if (listing.state === "loading") return <p className="muted small" aria-busy="true">{t("controls.installChecking")}</p>;
  if (listing.state === "failed") return <p className="muted small">{t("controls.installKeepHint")}</p>;
  const more = listing.count - listing.paths.length;
  return (
    <div className="install-changes small" data-testid="install-changes">
      {listing.recorded ? null : <p className="muted">{t("controls.installNoRecord")}</p>}
      {listing.count === 0 ? (
        <p className="muted">{t("controls.installNothingChanged")}</p>
      ) : (
        <>
          <p>{t("controls.installChangedCount", { count: listing.count })}</p>
          <ul className="install-paths">
            {listing.paths.map((path) => (
              <li key={path} dir="auto">
                <code>{path}</code>
              </li>
            ))}
          </ul>
          {more > 0 ? <p className="muted">{t("controls.installMore", { count: more })}</p> : null}
          <p className="muted">{listing.mode === "beside" ? t("controls.installModeBeside", { suffix: BESIDE_SUFFIX }) : t("controls.installModeSkip")}</p>
        </>
      )}
    </div>
  );
}

// The import dialog: a search (display name, id, type) and a repository filter at the top, then
// every repository as its own section under a heading that stays in view while its offers scroll
// (./RepositorySection). The search is a plain GET form, so it works without script; with script
// the list filters as one types, and repositories still loading fill in as they answer
// (islands/shell/template-import.ts).
import type { ImportTarget, RepositoryListing } from "../../../server/services/templates/repositories";
import { usePage } from "../../context";
import { RepositorySection } from "./RepositorySection";

export interface ImportDialogProps {
  repositories: RepositoryListing[];
  /** what importing an offer would do to the stored templates */
  targetOf(repository: RepositoryListing, offerId: string): ImportTarget;
  query: string;
  /** the one repository shown, when the dialog was filtered to it */
  repository?: string;
  /** every repository's id and name, for the filter (also those not shown) */
  choices: Array<{ id: string; name: string }>;
}

export function ImportDialog({ repositories, targetOf, query, repository, choices }: ImportDialogProps) {
  const { t } = usePage();
  return (
    <div className="modal-layer" id="import">
      <a className="overlay-backdrop" href="/template" aria-label={t("common.close")} />
      <div className="overlay template-import" role="dialog" aria-modal="true" aria-label={t("templates.importTitle")} data-import-dialog="">
        <div className="template-import-head stack">
          <div className="overlay-head">
            <h2>{t("templates.importTitle")}</h2>
            <a className="btn" href="/template" data-close-import="">{t("common.close")}</a>
          </div>
          <form method="get" action="/template#import" className="template-import-search" role="search">
            <input type="hidden" name="import" value="1" />
            <label className="field">
              <span className="field-label">{t("templates.search")}</span>
              <input type="search" name="q" defaultValue={query} placeholder={t("templates.searchPlaceholder")} autoComplete="off" dir="auto" data-import-filter="" />
            </label>
            <label className="field">
              <span className="field-label">{t("templates.repository")}</span>
              <select name="repository" defaultValue={repository ?? ""}>
                <option value="">{t("templates.allRepositories")}</option>
                {choices.map((choice) => (
                  <option key={choice.id} value={choice.id}>
                    {choice.name}
                  </option>
                ))}
              </select>
            </label>
            <button type="submit" className="btn">{t("templates.searchSubmit")}</button>
          </form>
          <p className="muted small">{t("templates.importChoice")}</p>
        </div>
        <div className="template-import-list">
          {repositories.map((repo) => (
            <RepositorySection key={repo.id} repo={repo} query={query} targetOf={(offerId) => targetOf(repo, offerId)} />
          ))}
        </div>
      </div>
    </div>
  );
}

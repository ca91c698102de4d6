// One repository in the import dialog: its heading (sticky while its offers scroll by), then
// each offer with its readme and what importing it would do: Import (a new id), Update (the
// installed template came from this repository), or, when the id is taken by a template from
// elsewhere, a choice between replacing it and importing under a free id (`<id>-<namespace>`).
// A repository still being read shows as loading; the page's script fetches this section again
// from /template/import/section, and without script a link waits for it.
import type { ImportTarget, RepositoryListing } from "../../../server/services/templates/repositories";
import { Markdown } from "../../../islands/lib/Markdown";
import { ShownLabel } from "../../../islands/lib/ShownLabel";
import { usePage } from "../../context";
import { Alert } from "../../components/Alert";
import { matchesSearch, offerSearchText } from "../../../core/templates/search";
import { errorMessageKey } from "../../../core/errors/message-key";

export interface RepositorySectionProps {
  repo: RepositoryListing;
  /** what importing an offer of this repository would do */
  targetOf(offerId: string): ImportTarget;
  /** the search the dialog was opened with: offers that do not match are left out */
  query: string;
}

const matchesQuery = (offer: { display: string; id: string; type: string }, query: string) => matchesSearch(offerSearchText(offer), query);

/** The address of one repository's section, for the page's script (and the dialog filtered to it). */
export const sectionUrl = (repository: string) => `/template/import/section?repository=${encodeURIComponent(repository)}`;

export function RepositorySection({ repo, targetOf, query }: RepositorySectionProps) {
  const { t } = usePage();
  const title = repo.builtIn ? t("templates.library") : repo.name;
  const shown = repo.templates.filter((offer) => matchesQuery(offer, query));
  if (repo.pending) {
    return (
      <section className="stack template-repo" data-repository={repo.id} data-pending={sectionUrl(repo.id)}>
        <h3 dir="auto">{title}</h3>
        <p className="muted" aria-busy="true">
          {t("templates.repoLoading")} <a href={`/template?import=1&repository=${encodeURIComponent(repo.id)}#import`}>{t("templates.repoWait")}</a>
        </p>
      </section>
    );
  }
  return (
    <section className="stack template-repo" data-repository={repo.id} aria-label={title}>
      <h3 dir="auto">
        {title} <span className="small muted template-repo-count">{t("templates.repoCount", { count: repo.templates.length })}</span>
      </h3>
      {repo.error ? <Alert kind="error">{t(errorMessageKey(repo.error.code, repo.error.metadata), repo.error.metadata)}</Alert> : null}
      {!repo.error && repo.templates.length === 0 ? <p className="muted">{t("templates.repoEmpty")}</p> : null}
      {repo.templates.length > 0 ? (
        <p className="muted template-repo-none" hidden={shown.length > 0}>
          {t("templates.repoNoMatch")}
        </p>
      ) : null}
      <ul className="list template-offers">
        {repo.templates.map((offer) => (
          <li key={offer.id} className="template-offer" data-offer={offer.id} data-search={offerSearchText(offer)} hidden={!matchesQuery(offer, query)}>
            <details>
              <summary>
                <span className="template-offer-name">
                  <strong><ShownLabel text={offer.display} hint={t("common.hiddenCharacters")} dir="auto" /></strong> <code className="small">{offer.id}</code> <ShownLabel className="small muted" text={offer.type} hint={t("common.hiddenCharacters")} />
                </span>
              </summary>
              {offer.readme ? <Markdown source={offer.readme} className="template-readme" /> : <p className="muted">{t("templates.noReadme")}</p>}
            </details>
            <OfferActions repository={repo.id} offerId={offer.id} target={targetOf(offer.id)} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function OfferActions({ repository, offerId, target }: { repository: string; offerId: string; target: ImportTarget }) {
  const { t } = usePage();
  const action = `/template/import/${encodeURIComponent(offerId)}`;
  const post = (as: string, label: string, className: string, title?: string) => (
    <form method="post" action={action}>
      <input type="hidden" name="repository" value={repository} />
      <input type="hidden" name="as" value={as} />
      <button type="submit" className={className} title={title} data-import-as={as}>
        {label}
      </button>
    </form>
  );
  if (target.kind === "new") return <div className="template-offer-actions">{post(offerId, t("templates.importOne"), "btn btn-primary")}</div>;
  if (target.kind === "update") return <div className="template-offer-actions">{post(offerId, t("templates.update"), "btn", t("templates.updateHint"))}</div>;
  return (
    <div className="template-offer-actions template-offer-collision">
      <p className="small muted" data-collision="">
        {target.from ? t("templates.collisionFrom", { id: offerId, from: target.from === "kiln" ? t("templates.library") : target.from }) : t("templates.collision", { id: offerId })}
      </p>
      {post(target.renamed, t("templates.importAs", { id: target.renamed }), "btn btn-primary")}
      {post(offerId, t("templates.replace"), "btn", t("templates.replaceHint"))}
    </div>
  );
}

// The import dialog: every repository with the templates it offers (display name, id, readme) and
// an Import button each. Importing replaces a template with the same id, which the button says.
import type { RepositoryListing } from "../../../server/services/templates/repositories";
import { Markdown } from "../../../islands/lib/Markdown";
import { usePage } from "../../context";
import { Alert } from "../../components/Alert";

export function ImportDialog({ repositories, installed }: { repositories: RepositoryListing[]; installed: ReadonlySet<string> }) {
  const { t } = usePage();
  return (
    <div className="modal-layer" id="import">
      <a className="overlay-backdrop" href="/template" aria-label={t("common.close")} />
      <div className="overlay template-import" role="dialog" aria-modal="true" aria-label={t("templates.importTitle")}>
        <div className="overlay-head">
          <h2>{t("templates.importTitle")}</h2>
          <a className="btn" href="/template" data-close-import="">{t("common.close")}</a>
        </div>
        <p className="muted">{t("templates.importIntro")}</p>
        {repositories.map((repo) => (
          <section className="stack template-repo" key={repo.id} data-repository={repo.id}>
            <h3>{repo.builtIn ? t("templates.library") : repo.name}</h3>
            {repo.error ? <Alert kind="error">{t(`errors.${repo.error.code}`, repo.error.metadata)}</Alert> : null}
            {!repo.error && repo.templates.length === 0 ? <p className="muted">{t("templates.repoEmpty")}</p> : null}
            <ul className="list template-offers">
              {repo.templates.map((offer) => (
                <li key={offer.id} className="template-offer" data-offer={offer.id}>
                  <details>
                    <summary>
                      <span className="template-offer-name">
                        <strong>{offer.display}</strong> <code className="small">{offer.id}</code>
                      </span>
                    </summary>
                    {offer.readme ? <Markdown source={offer.readme} className="template-readme" /> : <p className="muted">{t("templates.noReadme")}</p>}
                  </details>
                  <form method="post" action={`/template/import/${encodeURIComponent(offer.id)}`}>
                    <input type="hidden" name="repository" value={repo.id} />
                    <button type="submit" className={installed.has(offer.id) ? "btn" : "btn btn-primary"} title={installed.has(offer.id) ? t("templates.replaceHint") : undefined}>
                      {t(installed.has(offer.id) ? "templates.replace" : "templates.importOne")}
                    </button>
                  </form>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    </div>
  );
}

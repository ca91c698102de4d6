// The browse pane: a search of the source for this server's loader and Minecraft version (the
// service adds both), narrowed to a category or not, sorted by relevance, downloads, last update
// or age, a page of results at a
// time. Each result shows a letter avatar (no icon is fetched from the source's image host), its
// title, description and downloads; its title opens the project. A source that does not answer
// is said here, with a retry: the rest of the tab does not wait for it. Without script the search
// is a plain GET form of the tab (the page renders `initial`, what it asked), a title is a link to
// the project's card, a modpack's is a form that plans it, and the pager is links.
import { useEffect, useRef, useState, type ReactNode } from "react";
import { SEARCH_PARAMS, type AddonKind } from "../../core/mods/types";
import { useT } from "../lib/i18n";
import { Icon } from "../lib/Icon";
import { search as searchIcon, upload as uploadIcon } from "../files/icons";
import { Avatar } from "./Avatar";
import { ShownLabel } from "../lib/ShownLabel";
import { MAX_PAGE, PAGE_SIZE, SORTS, type BrowseSource, type ModsApi, type SearchAnswer, type SearchHit, type Sort } from "./mods-api";
import { Notice } from "./Notice";
import { categoriesOf } from "../../core/mods/categories";
import { errorSentence } from "./say-error";
import { ActionForm, modsFormBase } from "./ActionForm";

type Results = { kind: "idle" } | { kind: "loading"; last?: SearchAnswer } | { kind: "ready"; answer: SearchAnswer } | { kind: "failed"; message: string };

/** What the page asked the source for a search sent without script (the query string's words), and its answer. */
export interface InitialSearch {
  q: string;
  sort: Sort;
  category: string;
  source: BrowseSource;
  page: number;
  answer: SearchAnswer;
}

export interface BrowsePaneProps {
  serverId: string;
  mods: ModsApi;
  folder: AddonKind;
  /** the sources offered, the first the default (a single one is not offered as a choice) */
  sources?: readonly BrowseSource[];
  /** add-ons (mods or plugins, by folder), or modpacks (no categories: Modrinth's are the mods') */
  kind?: "addons" | "packs";
  hydrated: boolean;
  onOpen(hit: SearchHit): void;
  /** modpacks: a .mrpack the user chose to install */
  onFile?(file: File): void;
  /** shown under the pane's heading (the installed modpack) */
  children?: ReactNode;
  /** a search the page made (a form sent without script): shown, and not asked again */
  initial?: InitialSearch;
}



export function BrowsePane({ serverId, mods, folder, sources = ["modrinth"], kind = "addons", hydrated, onOpen, onFile, children, initial }: BrowsePaneProps) {
  const t = useT();
  const [query, setQuery] = useState(initial?.q ?? "");
  const [sort, setSort] = useState<Sort>(initial?.sort ?? "relevance");
  const [category, setCategory] = useState(initial?.category ?? "");
  const [source, setSource] = useState<BrowseSource>(initial?.source ?? sources[0] ?? "modrinth");
  const [page, setPage] = useState(initial?.page ?? 1);
  /** the words the results shown were asked for (the pager asks for more of the same) */
  const [searched, setSearched] = useState(initial?.q ?? "");
  const [results, setResults] = useState<Results>(initial ? { kind: "ready", answer: initial.answer } : { kind: "idle" });
  /** The categories the source last listed of its own (CurseForge's), and which source that was. */
  const [listed, setListed] = useState(initial?.answer.categories ? { source: initial.source, categories: initial.answer.categories } : null);
  const asked = useRef(0);
  const packs = kind === "packs";
  /** The pane's test ids and element ids: the tab shows both panes on a mod loader. */
  const prefix = packs ? "mods-packs" : "mods";

  async function run(q: string, s: Sort, p: number, c = category, from = source) {
    const ask = ++asked.current;
    setPage(p);
    setSearched(q);
    setResults((r) => ({ kind: "loading", last: r.kind === "ready" ? r.answer : r.kind === "loading" ? r.last : undefined }));
    try {
      const answer = packs ? await mods.searchPacks(q.trim(), s, p, from) : await mods.search(q.trim(), s, p, c, from);
      if (ask !== asked.current) return;
      setResults({ kind: "ready", answer });
      if (answer.categories) setListed({ source: from, categories: answer.categories });
    } catch (error) {
      const message = await errorSentence(error);
      if (ask === asked.current) setResults({ kind: "failed", message });
    }
  }

  // What is popular for this server, before anything is typed (unless the page brought a search).
  useEffect(() => {
    if (hydrated && !initial) void run("", "relevance", 1);
  }, [hydrated]);
  const names = SEARCH_PARAMS[packs ? "packs" : "addons"];
  const tabUrl = `/server/${encodeURIComponent(serverId)}`;
  /** The address of a page of this search, for the pager's links without script. */
  const pageUrl = (p: number) => {
    const params = new URLSearchParams({ tab: "mods", [names.q]: searched, [names.sort]: sort, [names.page]: String(p) });
    params.set(names.source, source);
    if (!packs && category) params.set(names.category, category);
    return `${tabUrl}?${params}`;
  };
  const go = (p: number) => (e: { preventDefault(): void }) => {
    if (!hydrated) return;
    e.preventDefault();
    void run(searched, sort, p);
  };

  const shown = results.kind === "ready" ? results.answer : results.kind === "loading" ? results.last : undefined;
  // Modrinth's and Hangar's categories in the panel's words; CurseForge's as CurseForge names them.
  const fixed = categoriesOf(source);
  const categoryOptions = fixed.length > 0 ? fixed.map((c) => ({ value: c, label: t(`mods.category.${c}`) })) : listed?.source === source ? listed.categories.map((c) => ({ value: c.id, label: c.name })) : [];
  const pages = shown ? Math.min(MAX_PAGE, Math.max(1, Math.ceil(shown.total / PAGE_SIZE))) : 1;
  const heading = t(packs ? "mods.packs.title" : folder === "plugins" ? "mods.browse.titlePlugins" : "mods.browse.titleMods");
  return (
    <section className="card stack mods-browse" data-testid={`${prefix}-browse`} aria-labelledby={`${prefix}-browse-title`}>
      <div>
        <h2 id={`${prefix}-browse-title`}>{heading}</h2>
        <p className="muted small">{t(packs ? "mods.packs.intro" : "mods.browse.intro")}</p>
      </div>
      {children}
      {packs && onFile && !hydrated ? (
        // Without script: the file is sent by a plain form and planned by the page.
        <form className="mods-pack-upload" method="post" action={`${modsFormBase(serverId)}/packs/upload`} encType="multipart/form-data">
          <input type="file" name="file" accept=".mrpack" required data-testid="mods-pack-file-plain" />
          <button type="submit" className="btn">
            <Icon path={uploadIcon} size={18} />
            <span>{t("mods.packs.fromFile")}</span>
          </button>
        </form>
      ) : null}
      {packs && onFile && hydrated ? (
        <label className="btn mods-pack-file">
          <Icon path={uploadIcon} size={18} />
          <span>{t("mods.packs.fromFile")}</span>
          <input
            type="file"
            accept=".mrpack"
            className="sr-only"
            data-testid="mods-pack-file"
            onChange={(e) => {
              const file = e.currentTarget.files?.[0];
              e.currentTarget.value = "";
              if (file) onFile(file);
            }}
          />
        </label>
      ) : null}
      <form
        className="mods-search"
        role="search"
        method="get"
        action={tabUrl}
        onSubmit={(e) => {
          if (!hydrated) return;
          e.preventDefault();
          void run(query, sort, 1);
        }}
      >
        <input type="hidden" name="tab" value="mods" />
        <label className="field mods-search-field">
          <span className="sr-only">{t("mods.browse.search")}</span>
          <input type="search" name={names.q} value={query} onChange={(e) => setQuery(e.currentTarget.value)} placeholder={t("mods.browse.searchPlaceholder")} maxLength={200} dir="auto" data-testid={`${prefix}-search`} />
        </label>
        {sources.length < 2 ? null : (
          <label className="field mods-source">
            <span className="sr-only">{t("mods.browse.source")}</span>
            <select
              name={names.source}
              value={source}
              onChange={(e) => {
                const next = e.currentTarget.value as BrowseSource;
                // Categories are each source's own: another source is searched without one.
                setSource(next);
                setCategory("");
                void run(query, sort, 1, "", next);
              }}
              data-testid={`${prefix}-source`}
              title={t("mods.browse.source")}
            >
              {sources.map((s) => (
                <option key={s} value={s}>
                  {t(`mods.source.${s}`)}
                </option>
              ))}
            </select>
          </label>
        )}
        {packs || categoryOptions.length === 0 ? null : (
        <label className="field mods-category">
          <span className="sr-only">{t("mods.browse.category")}</span>
          <select
            name={names.category}
            value={category}
            onChange={(e) => {
              const next = e.currentTarget.value;
              setCategory(next);
              void run(query, sort, 1, next);
            }}
            data-testid="mods-category"
            title={t("mods.browse.category")}
          >
            <option value="">{t("mods.browse.anyCategory")}</option>
            {categoryOptions.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </select>
        </label>
        )}
        <label className="field mods-sort">
          <span className="sr-only">{t("mods.browse.sort")}</span>
          <select
            name={names.sort}
            value={sort}
            onChange={(e) => {
              const next = e.currentTarget.value as Sort;
              setSort(next);
              void run(query, next, 1);
            }}
            data-testid={`${prefix}-sort`}
            title={t("mods.browse.sort")}
          >
            {SORTS.map((s) => (
              <option key={s} value={s}>
                {t(`mods.sort.${s}`)}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="btn btn-primary">
          <Icon path={searchIcon} size={18} />
          <span>{t("mods.browse.search")}</span>
        </button>
      </form>
      <div aria-live="polite" className="mods-browse-state">
        {/* Idle until the island asks (or, without script, until the form is sent): nothing to say yet. */}
        {results.kind === "loading" && !results.last ? (
          <p className="muted" aria-busy="true">
            {t("mods.browse.searching")}
          </p>
        ) : null}
        {results.kind === "failed" ? (
          <Notice kind="warning" testId={`${prefix}-browse-failed`}>
            <span>{results.message}</span> <span>{t("mods.browse.unavailable")}</span>
            <span className="mods-retry">
              <button type="button" className="btn" onClick={() => void run(searched, sort, page)}>
                {t("mods.browse.retry")}
              </button>
            </span>
          </Notice>
        ) : null}
        {shown ? <p className="muted small">{t("mods.browse.results", { count: shown.total })}</p> : null}
      </div>
      {shown && shown.hits.length === 0 ? <p className="muted">{t("mods.browse.none")}</p> : null}
      {shown && shown.hits.length > 0 ? (
        <ul className="list mods-results" aria-busy={results.kind === "loading"} data-testid={`${prefix}-results`}>
          {shown.hits.map((hit) => (
            <li key={`${hit.source}:${hit.projectId}`} className="list-row mods-hit" data-project={hit.projectId} data-source={hit.source}>
              <Avatar id={hit.projectId} title={hit.title} />
              <div className="mods-hit-text">
                {packs ? (
                  <ActionForm action={`${modsFormBase(serverId)}/packs/plan`} fields={{ source: hit.source, projectId: hit.projectId }} hydrated={hydrated} onAct={() => onOpen(hit)}>
                    <button type="submit" className="mods-link">
                      <ShownLabel text={hit.title} hint={t("common.hiddenCharacters")} dir="auto" />
                    </button>
                  </ActionForm>
                ) : (
                  <a
                    className="mods-link"
                    href={`${tabUrl}?${new URLSearchParams({ tab: "mods", project: hit.projectId, source: hit.source })}`}
                    onClick={(e) => {
                      if (!hydrated) return;
                      e.preventDefault();
                      onOpen(hit);
                    }}
                  >
                    <ShownLabel text={hit.title} hint={t("common.hiddenCharacters")} dir="auto" />
                  </a>
                )}
                <ShownLabel className="small mods-hit-description" text={hit.description} hint={t("common.hiddenCharacters")} dir="auto" />
                <span className="muted small">{t("mods.browse.downloads", { count: hit.downloads })}</span>
              </div>
            </li>
          ))}
        </ul>
      ) : null}
      {shown && pages > 1 ? (
        <nav className="mods-pager" aria-label={t("mods.browse.pages")}>
          {page > 1 && results.kind !== "loading" ? (
            <a className="btn" href={pageUrl(page - 1)} onClick={go(page - 1)}>
              {t("mods.browse.previous")}
            </a>
          ) : (
            <span className="btn disabled" aria-disabled="true">{t("mods.browse.previous")}</span>
          )}
          <span className="muted small">{t("mods.browse.page", { page, pages })}</span>
          {page < pages && results.kind !== "loading" ? (
            <a className="btn" href={pageUrl(page + 1)} onClick={go(page + 1)}>
              {t("mods.browse.next")}
            </a>
          ) : (
            <span className="btn disabled" aria-disabled="true">{t("mods.browse.next")}</span>
          )}
        </nav>
      ) : null}
    </section>
  );
}

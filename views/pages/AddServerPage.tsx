// Add server: first the template, then node ("Best node" lets placement choose,
// among the nodes carrying the tags asked for), environment (one of those the
// template supports), owner, the template's variables and the three run flags. Two plain forms,
// so it works without script.
import type { Template, Environment } from "../../core/definition";
import type { TemplateSummary } from "../../server/services/templates";
import type { NodeView } from "../../server/services/nodes";
import { Shell, PageHeader } from "../layout/Shell";
import { usePage } from "../context";
import { Alert } from "../components/Alert";
import { VariableField } from "../../islands/lib/VariableField";
import { variablesFromForm } from "../../core/definition/variable-form";
import { GroupedVariables } from "../components/GroupedVariables";
import { LimitsFields } from "../components/LimitsFields";
import { Markdown } from "../../islands/lib/Markdown";
import { ShownLabel } from "../../islands/lib/ShownLabel";
import { shownLabel } from "../../core/text/shown-label";
import { PACK_SOURCES, type PackSource } from "../../core/mods/types";
import type { PackSearch } from "../../server/services/mods/pack-search";

export interface AddServerPageProps {
  templates: TemplateSummary[];
  nodes: NodeView[];
  /** the chosen template, once one is */
  template?: Template & { id: string };
  environments?: Environment[];
  ownerEmail: string;
  values?: Record<string, string>;
  error?: string;
  /** An administrator also sets the server's resource limits. */
  admin?: boolean;
  /** The modpack as typed in "start from a modpack", and what it was found to be. */
  modpackText?: string;
  modpack?: ModpackSummary;
  /** "Find a modpack": what was searched for, and what the source answered (or why it did not). */
  packSearch?: PackSearchView;
}

/** A search of a source's modpacks as the page shows it. */
export interface PackSearchView {
  q: string;
  source: PackSource;
  result?: PackSearch;
  error?: string;
}

/** A modpack a new server starts from, as the page shows it. */
export interface ModpackSummary {
  text: string;
  /** Where the pack comes from: a Modrinth pack is placed by Kiln after the install, a CurseForge server pack by the install itself. */
  source: "modrinth" | "curseforge";
  title: string;
  versionNumber: string;
  loader: string | null;
  gameVersion: string | null;
}

export function AddServerPage({ templates, nodes, template, environments = [], ownerEmail, values = {}, error, admin = false, modpackText = "", modpack, packSearch }: AddServerPageProps) {
  // The images a docker environment offers (an egg's docker_images): whoever creates the server picks one.
  const dockerImages = environments.flatMap((e) => (e.type === "docker" && e.images ? e.images : []));
  const { t } = usePage();
  const missing = templates.length === 0 ? t("errors.ErrNoTemplates") : nodes.length === 0 ? t("errors.ErrNoNodes") : null;
  return (
    <Shell title={t("page.addServer.title")}>
      <PageHeader title={t("page.addServer.title")} />
      <div className="stack form-narrow">
        {error ? <Alert kind="error">{error}</Alert> : null}
        {missing ? <Alert kind="warning">{missing}</Alert> : null}
        <form method="get" action="/addserver" className="card stack" data-testid="choose-template">
          <h2>{t("addServer.templateStep")}</h2>
          <label className="field">
            <span className="field-label">{t("addServer.template")}</span>
            <select name="template" defaultValue={template?.id ?? ""} required>
              <option value="" disabled>{t("addServer.chooseTemplate")}</option>
              {templates.map((tpl) => (
                <option key={tpl.id} value={tpl.id}>{shownLabel(tpl.display || tpl.id)}</option>
              ))}
            </select>
          </label>
          <div><button type="submit" className="btn">{template ? t("addServer.changeTemplate") : t("addServer.next")}</button></div>
        </form>
        {/* Or the modpack names the template: the page comes back with it chosen. A search finds one's address. */}
        <div className="card stack addserver-modpack">
          <h2>{t("addServer.fromModpack")}</h2>
          <PackFinder search={packSearch} />
          <form method="get" action="/addserver" className="stack" data-testid="choose-modpack">
            <label className="field">
              <span className="field-label">{t("addServer.modpack")}</span>
              <input type="text" name="modpack" defaultValue={modpackText} maxLength={300} dir="ltr" placeholder="https://modrinth.com/modpack/…" />
              <span className="field-hint">{t("addServer.modpackHint")}</span>
            </label>
            <div><button type="submit" className="btn">{t("addServer.next")}</button></div>
          </form>
        </div>
        {template && !missing ? (
          <form method="post" action={`/addserver?template=${encodeURIComponent(template.id)}`} className="card stack" data-testid="create-server">
            <h2><ShownLabel text={template.display || template.id} hint={t("common.hiddenCharacters")} dir="auto" /></h2>
            {/* The readme as the import dialog shows it: markdown made into elements on the server, never HTML. */}
            {template.readme ? <Markdown source={template.readme} className="template-readme addserver-readme" headingBase={3} /> : null}
            <input type="hidden" name="template" value={template.id} />
            {modpack ? (
              <>
                <Alert kind="info">{t(modpack.source === "curseforge" ? "addServer.modpackChosenCurseForge" : "addServer.modpackChosen", { title: shownLabel(modpack.title), version: shownLabel(modpack.versionNumber), loader: modpack.loader ?? "?", gameVersion: modpack.gameVersion ?? "?" })}</Alert>
                <input type="hidden" name="modpack" value={modpack.text} />
              </>
            ) : null}
            <label className="field">
              <span className="field-label">{t("servers.name")}</span>
              <input type="text" name="name" required maxLength={64} defaultValue={values.name} dir="auto" />
              <span className="field-hint">{t("addServer.nameHint")}</span>
            </label>
            <label className="field">
              <span className="field-label">{t("servers.node")}</span>
              {/* "Best node" leads the list; a named node stays the default, as before placement existed. */}
              <select name="node" defaultValue={values.node ?? String(nodes[0]?.id ?? "")}>
                <option value="auto">{t("addServer.bestNode")}</option>
                {nodes.map((n) => (
                  <option key={n.id} value={n.id}>{n.name}{n.status === "offline" ? ` (${t("addServer.offline")})` : ""}</option>
                ))}
              </select>
            </label>
            {/* Shown while "Best node" is chosen (CSS alone, servers.css), so also without script. */}
            <label className="field addserver-constraints">
              <span className="field-label">{t("addServer.constraints")}</span>
              <input type="text" name="constraints" defaultValue={values.constraints} maxLength={700} dir="ltr" autoComplete="off" spellCheck={false} placeholder="location=eu, ssd" />
              <span className="field-hint">{t("addServer.constraintsHint")}</span>
            </label>
            <label className="field">
              <span className="field-label">{t("addServer.environment")}</span>
              <select name="environment" defaultValue={values.environment ?? template.environment.type}>
                {environments.map((e) => (
                  <option key={e.type} value={e.type}>{t(`addServer.env.${e.type}`)}</option>
                ))}
              </select>
            </label>
            {dockerImages.length > 1 ? (
              <label className="field">
                <span className="field-label">{t("addServer.image")}</span>
                <select name="image" defaultValue={values.image ?? dockerImages[0]!.image}>
                  {dockerImages.map((i) => (
                    <option key={i.image} value={i.image}>{i.display === i.image ? i.image : `${i.display} (${i.image})`}</option>
                  ))}
                </select>
                <span className="field-hint">{t("addServer.imageHint")}</span>
              </label>
            ) : null}
            <label className="field">
              <span className="field-label">{t("addServer.owner")}</span>
              <input type="email" name="user" required defaultValue={values.user ?? ownerEmail} />
            </label>
            {template.groups?.length ? (
              <GroupedVariables data={template.data} groups={template.groups} values={variablesFromForm(values)} />
            ) : Object.keys(template.data).length > 0 ? (
              <fieldset className="stack fieldset">
                <legend>{t("addServer.variables")}</legend>
                {Object.entries(template.data).map(([name, variable]) => (
                  <VariableField key={name} name={name} variable={variable} value={values[`var.${name}`]} hint={t("common.hiddenCharacters")} />
                ))}
              </fieldset>
            ) : null}
            <fieldset className="stack fieldset">
              <legend>{t("addServer.options")}</legend>
              {(["autostart", "autorestart", "autorecover"] as const).map((flag) => (
                <label key={flag} className="check-row">
                  <input type="checkbox" name={flag} value="true" defaultChecked={values[flag] === "true" || (values[flag] === undefined && template.run[flag])} />
                  <span>{t(`serverAdmin.${flag}`)}</span>
                </label>
              ))}
            </fieldset>
            {admin ? <LimitsFields limits={values.memoryMiB === undefined ? template.limits : values} /> : null}
            <div><button type="submit" className="btn btn-primary">{t("addServer.create")}</button></div>
          </form>
        ) : null}
      </div>
    </Shell>
  );
}

/** "Find a modpack": a plain GET form (no script needed), its hits each a link that chooses the pack by its page address. */
function PackFinder({ search }: { search?: PackSearchView }) {
  const { t } = usePage();
  const pageLink = (page: number) => `/addserver?${new URLSearchParams({ packs: search?.q ?? "", source: search?.source ?? "modrinth", page: String(page) })}`;
  const result = search?.result;
  return (
    <section className="stack" data-testid="find-modpack">
      <form method="get" action="/addserver" className="addserver-pack-search">
        <label className="field">
          <span className="field-label">{t("addServer.findModpack")}</span>
          <input type="search" name="packs" defaultValue={search?.q ?? ""} maxLength={200} placeholder={t("mods.browse.searchPlaceholder")} dir="auto" />
        </label>
        <label className="field">
          <span className="field-label">{t("mods.browse.source")}</span>
          <select name="source" defaultValue={search?.source ?? "modrinth"}>
            {PACK_SOURCES.map((source) => (
              <option key={source} value={source}>{t(`mods.source.${source}`)}</option>
            ))}
          </select>
        </label>
        <div><button type="submit" className="btn">{t("mods.browse.search")}</button></div>
      </form>
      {search?.error ? <Alert kind="error">{search.error}</Alert> : null}
      {result ? (
        result.hits.length === 0 ? (
          <p className="field-hint">{t("mods.browse.none")}</p>
        ) : (
          <>
            <p className="field-hint">{t("mods.browse.results", { count: result.total })}</p>
            <ul className="list" data-testid="pack-hits">
              {result.hits.map((hit) => (
                <li key={`${hit.source}:${hit.projectId}`} className="list-row">
                  <div>
                    <strong><ShownLabel text={hit.title} hint={t("common.hiddenCharacters")} dir="auto" /></strong>
                    <ShownLabel className="field-hint" text={hit.description} hint={t("common.hiddenCharacters")} dir="auto" />
                    <span className="field-hint">{t("mods.browse.downloads", { count: hit.downloads })}</span>
                  </div>
                  <a className="btn" href={`/addserver?modpack=${encodeURIComponent(hit.address)}`} data-testid="pack-choose">{t("addServer.choosePack")}</a>
                </li>
              ))}
            </ul>
            {result.pages > 1 ? (
              <nav className="pager" aria-label={t("mods.browse.pages")}>
                {result.page > 1 ? <a href={pageLink(result.page - 1)}>{t("mods.browse.previous")}</a> : <span />}
                <span className="field-hint">{t("mods.browse.page", { page: result.page, pages: result.pages })}</span>
                {result.page < result.pages ? <a href={pageLink(result.page + 1)}>{t("mods.browse.next")}</a> : <span />}
              </nav>
            ) : null}
          </>
        )
      ) : null}
    </section>
  );
}

// Template list: display name, id, type and where it came from (Kiln,
// PufferPanel, an egg); Add and Import for those who may
// edit templates. The import dialog is rendered open by the server (`?import`), so it works
// without script; it lists what each repository offers with its readme.
import type { TemplateSummary } from "../../../server/services/templates";
import { Shell, PageHeader } from "../../layout/Shell";
import { usePage } from "../../context";
import { Alert } from "../../components/Alert";
import { EmptyState } from "../../components/EmptyState";
import { templates as templatesIcon } from "../../../islands/lib/icons";
import { ImportDialog, type ImportDialogProps } from "./ImportDialog";
import { ShownLabel } from "../../../islands/lib/ShownLabel";

export interface TemplatesPageProps {
  templates: TemplateSummary[];
  canEdit: boolean;
  /** set when the import dialog is open */
  importDialog?: ImportDialogProps;
  error?: string;
}

export function TemplatesPage({ templates, canEdit, importDialog, error }: TemplatesPageProps) {
  const { t } = usePage();
  return (
    <Shell title={t("page.templates.title")}>
      <PageHeader title={t("page.templates.title")}>
        {/* An empty list offers these in its empty state instead. */}
        {canEdit && templates.length > 0 ? (
          <>
            <a className="btn" href="/template?import=1#import" data-hotkey="i">{t("templates.import")}</a>
            <a className="btn btn-primary" href="/addtemplate">{t("templates.add")}</a>
          </>
        ) : null}
      </PageHeader>
      {error ? <Alert kind="error">{error}</Alert> : null}
      {templates.length === 0 ? (
        <EmptyState icon={templatesIcon} message={t(canEdit ? "templates.none" : "templates.noneAskAdmin")} testId="templates-empty">
          {canEdit ? (
            <>
              <a className="btn btn-primary" href="/template?import=1#import" data-hotkey="i">{t("templates.import")}</a>
              <a className="btn" href="/addtemplate">{t("templates.add")}</a>
            </>
          ) : null}
        </EmptyState>
      ) : (
        <section className="card table-card">
          <table className="data-table template-list">
            <thead>
              <tr>
                <th>{t("templates.display")}</th>
                <th>{t("templates.name")}</th>
                <th>{t("templates.type")}</th>
                <th className="template-source">{t("templates.source")}</th>
              </tr>
            </thead>
            <tbody>
              {templates.map((template) => (
                <tr key={template.id} data-template={template.id}>
                  <td>
                    <a href={`/template/${encodeURIComponent(template.id)}`}><ShownLabel text={template.display} hint={t("common.hiddenCharacters")} dir="auto" /></a>
                    {/* On phones the source column gives way: the source sits under the name. */}
                    {template.source ? <span className="template-source-inline small muted">{t(`templates.source.${template.source}`)}</span> : null}
                  </td>
                  <td><code>{template.id}</code></td>
                  <td><ShownLabel text={template.type} hint={t("common.hiddenCharacters")} /></td>
                  <td className="template-source" data-source={template.source ?? ""}>{template.source ? t(`templates.source.${template.source}`) : ""}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
      {importDialog ? <ImportDialog {...importDialog} /> : null}
    </Shell>
  );
}

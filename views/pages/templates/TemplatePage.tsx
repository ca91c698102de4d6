// Add template and Edit template: the template editor island, and on the edit
// screen a delete with confirmation for those who may edit templates.
import TemplateEditor from "../../../islands/TemplateEditor";
import { Shell, PageHeader } from "../../layout/Shell";
import { usePage } from "../../context";
import { Alert } from "../../components/Alert";
import { shownLabel } from "../../../core/text/shown-label";
import { Island } from "../../components/Island";
import { ConfirmActions, ModalDetails } from "../../components/Modal";
import { ConversionNotesList } from "../../../islands/definition/ConversionNotes";
import type { Converted } from "../../../islands/definition/useEditorModes";

export interface TemplatePageProps {
  /** absent on Add template */
  templateId?: string;
  display?: string;
  template: object;
  /** a posted text that was not JSON, shown as typed */
  text?: string;
  /** the name typed on Add, after a refused save */
  name?: string;
  canEdit: boolean;
  error?: string;
  /** what importing it from a repository changed, listed once after the import */
  imported?: Converted;
}

export function TemplatePage({ templateId, display, template, text, name, canEdit, error, imported }: TemplatePageProps) {
  const { t } = usePage();
  const adding = templateId === undefined;
  // A display name may come from a template repository: with its escapes (core/text/shown-label).
  const title = adding ? t("page.addTemplate.title") : shownLabel(display || templateId);
  const action = adding ? "/addtemplate" : `/template/${encodeURIComponent(templateId)}`;
  return (
    <Shell title={title}>
      <PageHeader title={title}>
        <a className="btn" href="/template">{t("templates.back")}</a>
        {!adding && canEdit ? (
          <ModalDetails summary={t("templates.delete")} summaryClass="btn btn-danger" title={t("templates.delete")} testId="delete-template">
            <form method="post" action={`${action}/delete`} className="stack">
              <p>{t("templates.deleteConfirm", { name: templateId })}</p>
              <ConfirmActions cancel={t("common.cancel")} confirm={t("common.delete")} />
            </form>
          </ModalDetails>
        ) : null}
      </PageHeader>
      {error ? <Alert kind="error">{error}</Alert> : null}
      {imported ? <ConversionNotesList {...imported} t={t} /> : null}
      <Island island={TemplateEditor} props={{ templateId, template, text, name, canEdit, action }} />
    </Shell>
  );
}

// Add node: the form; a created node opens on its deployment section.
import { Shell, PageHeader } from "../layout/Shell";
import { usePage } from "../context";
import { Alert } from "../components/Alert";
import { NodeForm, NEW_NODE_VALUES, NODE_FIELDS, type NodeFormValues } from "../components/NodeForm";
import type { FormError } from "../components/form-errors";

export function AddNodePage({ error, values = NEW_NODE_VALUES }: { error?: FormError; values?: NodeFormValues }) {
  const { t } = usePage();
  return (
    <Shell title={t("page.addNode.title")}>
      <PageHeader title={t("page.addNode.title")} />
      <section className="card stack form-narrow">
        {error && !(NODE_FIELDS as readonly string[]).includes(error.field ?? "") ? <Alert kind="error">{error.message}</Alert> : null}
        <p className="muted">{t("nodes.addHint")}</p>
        <NodeForm action="/addnode" values={values} submitLabel={t("nodes.create")} error={error} />
      </section>
    </Shell>
  );
}

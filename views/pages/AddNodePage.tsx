// Add node (spec section 2, Nodes): the form; a created node opens on its deployment section.
import { Shell, PageHeader } from "../layout/Shell";
import { usePage } from "../context";
import { Alert } from "../components/Alert";
import { NodeForm, NEW_NODE_VALUES, type NodeFormValues } from "../components/NodeForm";

export function AddNodePage({ error, values = NEW_NODE_VALUES }: { error?: string; values?: NodeFormValues }) {
  const { t } = usePage();
  return (
    <Shell title={t("page.addNode.title")}>
      <PageHeader title={t("page.addNode.title")} />
      <section className="card stack form-narrow">
        {error ? <Alert kind="error">{error}</Alert> : null}
        <p className="muted">{t("nodes.addHint")}</p>
        <NodeForm action="/addnode" values={values} submitLabel={t("nodes.create")} />
      </section>
    </Shell>
  );
}

// The only thing served on a cloud development environment host (core/net/cloud-ide). No script.
import { Document } from "../layout/Document";
import { usePage } from "../context";
import { Alert } from "../components/Alert";

export function CloudIdePage() {
  const { t } = usePage();
  return (
    <Document title={t("page.cloudIde.title")} shell={false}>
      <main className="content">
        <section className="card message-card">
          <h1>{t("page.cloudIde.title")}</h1>
          <Alert kind="warning">{t("page.cloudIde.text")}</Alert>
          <p>{t("page.cloudIde.fix")}</p>
        </section>
      </main>
    </Document>
  );
}

// The API documentation page: every operation, what it needs, and its body schema.
import type { Operation } from "../../server/api-docs/operations";
import { Shell, PageHeader } from "../layout/Shell";
import { usePage } from "../context";

export function ApiDocsPage({ operations, schemas }: { operations: Operation[]; schemas: Record<string, object> }) {
  const { t } = usePage();
  // "metricsToken": GET /metrics takes the metrics token alone (server/api-docs/operations METRICS_TOKEN).
  const needs = (n: string) => (n === "public" ? t("docs.public") : n === "login" ? t("docs.loggedIn") : n === "metricsToken" ? t("docs.metricsToken") : n);
  return (
    <Shell title={t("docs.title")}>
      <PageHeader title={t("docs.title")}>
        <a className="btn" href="/api/openapi.json">{t("docs.raw")}</a>
      </PageHeader>
      <section className="card stack">
        <p className="muted">{t("docs.intro")}</p>
        <div>
          {operations.map((op) => (
            <div key={`${op.method} ${op.path}`} className="endpoint">
              <div>
                <span className={`method method-${op.method}`}>{op.method.toUpperCase()}</span>
                <code>{op.path}</code>
              </div>
              <div>{op.summary}</div>
              <div className="muted small">{t("docs.auth")}: {needs(op.needs)}</div>
              {op.body ? <pre>{JSON.stringify(schemas[op.body], null, 2)}</pre> : null}
            </div>
          ))}
        </div>
      </section>
    </Shell>
  );
}

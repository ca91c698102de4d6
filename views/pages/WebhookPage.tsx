// One webhook's delivery log: each delivery's event, state, attempts, the last answer's status,
// time and first bytes (shown as text), and when it is tried next; a page at a time.
import type { WebhookView } from "../../server/services/webhooks/store";
import type { DeliveryView } from "../../server/services/webhooks/store";
import { EmptyState } from "../components/EmptyState";
import { Pager } from "../components/Pager";
import { RelativeTime } from "../components/RelativeTime";
import { Shell, PageHeader } from "../layout/Shell";
import { usePage } from "../context";
import { webhook as webhookIcon } from "../../islands/lib/icons";

export function WebhookPage({ webhook, deliveries, page, pages }: { webhook: WebhookView; deliveries: DeliveryView[]; page: number; pages: number }) {
  const { t } = usePage();
  const now = Date.now();
  return (
    <Shell title={t("page.webhook.title")}>
      <PageHeader title={t("page.webhook.title")}>
        <a className="btn" href="/webhooks">{t("webhooks.back")}</a>
      </PageHeader>
      <p>
        <code data-testid="webhook-url">{webhook.url}</code>
      </p>
      {deliveries.length === 0 ? (
        <EmptyState icon={webhookIcon} message={t("webhooks.noDeliveries")} testId="deliveries-empty" />
      ) : (
        <section className="card table-card">
          <table className="data-table deliveries-table" data-testid="deliveries-list">
            <thead>
              <tr>
                <th>{t("activity.column.when")}</th>
                <th>{t("activity.column.event")}</th>
                <th>{t("webhooks.state")}</th>
                <th>{t("webhooks.attempts")}</th>
                <th>{t("webhooks.answer")}</th>
              </tr>
            </thead>
            <tbody>
              {deliveries.map((d) => (
                <tr key={d.id} data-delivery={d.id} data-state={d.state}>
                  <td data-label={t("activity.column.when")}><RelativeTime at={Date.parse(d.createdAt)} now={now} /></td>
                  <td data-label={t("activity.column.event")}><code>{d.event}</code></td>
                  <td data-label={t("webhooks.state")}>
                    <span className={d.state === "delivered" ? "badge badge-on" : d.state === "failed" ? "badge badge-off" : "badge"}>{t(`webhooks.delivery.${d.state}`)}</span>
                    {d.nextAttemptAt ? <span className="muted small"> · {t("webhooks.nextAttempt")} <RelativeTime at={Date.parse(d.nextAttemptAt)} now={now} /></span> : null}
                  </td>
                  <td data-label={t("webhooks.attempts")}>{d.attempts}</td>
                  <td data-label={t("webhooks.answer")} className="deliveries-answer">
                    {d.status !== null ? <code>{d.status}</code> : null}
                    {d.latencyMs !== null ? <span className="muted small"> {t("webhooks.latency", { ms: d.latencyMs })}</span> : null}
                    {d.response ? <span className="muted small deliveries-excerpt">{d.response}</span> : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager page={page} pages={pages} link={(p) => `/webhooks/${webhook.id}?page=${p}`} />
        </section>
      )}
    </Shell>
  );
}

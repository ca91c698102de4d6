// The Activity page for administrators: the whole log, filtered by user, server, event (a name or a
// wildcard) and time, a page at a time, and the same filter exported as CSV. A form with GET:
// filtering works without script.
import { EVENT_NAMES } from "../../core/activity";
import type { ActivityView } from "../../server/services/activity/list";
import { ActivityTable } from "../components/ActivityTable";
import { EmptyState } from "../components/EmptyState";
import { Alert } from "../components/Alert";
import { Pager } from "../components/Pager";
import { Shell, PageHeader } from "../layout/Shell";
import { usePage } from "../context";
import { history } from "../../islands/lib/icons";

export interface ActivityQuery {
  user: string;
  server: string;
  event: string;
  since: string;
  until: string;
}

export function ActivityPage({ events, page, pages, query, error }: { events: ActivityView[]; page: number; pages: number; query: ActivityQuery; error?: string }) {
  const { t } = usePage();
  const params = (extra: Record<string, string>) => new URLSearchParams(Object.entries({ ...query, ...extra }).filter(([, v]) => v !== "")).toString();
  return (
    <Shell title={t("page.activity.title")}>
      <PageHeader title={t("page.activity.title")}>
        <a className="btn" href={`/api/activity?${params({ format: "csv" })}`} download data-testid="activity-export">{t("activity.export")}</a>
      </PageHeader>
      <form method="get" action="/activity" className="card activity-filter" data-testid="activity-filter">
        <label>
          <span>{t("activity.filter.user")}</span>
          <input type="text" name="user" inputMode="numeric" defaultValue={query.user} placeholder={t("activity.filter.userHint")} />
        </label>
        <label>
          <span>{t("activity.filter.server")}</span>
          <input type="text" name="server" defaultValue={query.server} />
        </label>
        <label>
          <span>{t("activity.filter.event")}</span>
          <input type="text" name="event" list="activity-events" defaultValue={query.event} placeholder="server.file.*" />
          <datalist id="activity-events">
            {EVENT_NAMES.map((name) => <option key={name} value={name} />)}
          </datalist>
        </label>
        <label>
          <span>{t("activity.filter.since")}</span>
          <input name="since" type="date" defaultValue={query.since} />
        </label>
        <label>
          <span>{t("activity.filter.until")}</span>
          <input name="until" type="date" defaultValue={query.until} />
        </label>
        <button type="submit" className="btn btn-primary">{t("activity.filter.apply")}</button>
      </form>
      {error ? <Alert kind="error">{error}</Alert> : null}
      {events.length === 0 ? (
        <EmptyState icon={history} message={t("activity.none")} testId="activity-empty" />
      ) : (
        <section className="card table-card">
          <ActivityTable events={events} />
          <Pager page={page} pages={pages} link={(p) => `/activity?${params({ page: String(p) })}`} />
        </section>
      )}
    </Shell>
  );
}

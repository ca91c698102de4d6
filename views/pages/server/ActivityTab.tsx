// A server's Activity tab (viewActivity): what was done to it and what it did, newest first, a
// page at a time, narrowed by event; the same as CSV; and, for holders of manageWebhooks, where
// its webhooks are kept.
import type { ActivityView } from "../../../server/services/activity/list";
import { ActivityTable } from "../../components/ActivityTable";
import { EmptyState } from "../../components/EmptyState";
import { Pager } from "../../components/Pager";
import { usePage } from "../../context";
import { history } from "../../../islands/lib/icons";
import { EVENT_NAMES, EVENTS, type EventRule } from "../../../core/activity";

export function ActivityTab({ serverId, events, page, pages, event, canManageWebhooks }: { serverId: string; events: ActivityView[]; page: number; pages: number; event: string; canManageWebhooks: boolean }) {
  const { t } = usePage();
  const query = (extra: Record<string, string>) => new URLSearchParams(Object.entries({ tab: "activity", event, ...extra }).filter(([, v]) => v !== "")).toString();
  const serverEvents = EVENT_NAMES.filter((name) => (EVENTS[name] as EventRule).server);
  return (
    <div className="activity-tab" data-testid="server-activity">
      <form method="get" action={`/server/${serverId}`} className="card activity-filter">
        <input type="hidden" name="tab" value="activity" />
        <label>
          <span>{t("activity.filter.event")}</span>
          <input type="text" name="event" list="server-activity-events" defaultValue={event} placeholder="server.file.*" />
          <datalist id="server-activity-events">
            {serverEvents.map((name) => <option key={name} value={name} />)}
          </datalist>
        </label>
        <button type="submit" className="btn btn-primary">{t("activity.filter.apply")}</button>
        <a className="btn" href={`/api/servers/${serverId}/activity?${new URLSearchParams(event ? { format: "csv", event } : { format: "csv" }).toString()}`} download>{t("activity.export")}</a>
        {canManageWebhooks ? <a className="btn" href={`/webhooks?server=${serverId}`} data-testid="server-webhooks-link">{t("webhooks.forServer")}</a> : null}
      </form>
      {events.length === 0 ? (
        <EmptyState icon={history} message={t("activity.none")} testId="activity-empty" />
      ) : (
        <section className="card table-card">
          <ActivityTable events={events} showServer={false} />
          <Pager page={page} pages={pages} link={(p) => `/server/${serverId}?${query({ page: String(p) })}`} />
        </section>
      )}
    </div>
  );
}

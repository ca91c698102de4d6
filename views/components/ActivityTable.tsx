// The activity log as a table (the Activity page, a server's Activity tab, the account's logins):
// when, what (the catalogue's event name), who, on which server, the properties the event keeps
// (named in the reader's language: activity-property-name), and from where when the reader may
// see it. A value Kiln wrote from a fixed set (a login's method, a refusal's code, yes or no) is
// said in the reader's language too (activity-property-value), the stored value as its tooltip.
// Other values are text: a file name or a console command is what a user typed, never markup,
// and an identity's email is the provider's claim: each is shown by the rule of untrusted labels
// (islands/lib/ShownLabel); a file's path with its bytes that are not UTF-8 escaped too, as the
// file manager shows it.
import type { ActivityView } from "../../server/services/activity/list";
import { RelativeTime } from "./RelativeTime";
import { usePage } from "../context";
import { ShownLabel } from "../../islands/lib/ShownLabel";
import { activityPropertyName } from "./activity-property-name";
import { activityPropertyValue, type ShownValue } from "./activity-property-value";
import { isFileProperty } from "../../core/activity/file-properties";
import { rawByteEscape } from "../../core/files/shown-name";

export function ActivityTable({ events, showServer = true, testId = "activity-list" }: { events: ActivityView[]; showServer?: boolean; testId?: string }) {
  const { t } = usePage();
  const now = Date.now();
  return (
    <table className="data-table activity-table" data-testid={testId}>
      <thead>
        <tr>
          <th>{t("activity.column.when")}</th>
          <th>{t("activity.column.event")}</th>
          <th>{t("activity.column.actor")}</th>
          {showServer ? <th>{t("activity.column.server")}</th> : null}
          <th>{t("activity.column.details")}</th>
          <th>{t("activity.column.address")}</th>
        </tr>
      </thead>
      <tbody>
        {events.map((event) => (
          <tr key={event.id} data-event={event.event}>
            <td data-label={t("activity.column.when")}>
              <RelativeTime at={Date.parse(event.at)} now={now} />
            </td>
            <td data-label={t("activity.column.event")}>
              <code>{event.event}</code>
            </td>
            <td data-label={t("activity.column.actor")}>{event.actor.name ?? t(`activity.actor.${event.actor.type}`)}{event.actor.name ? <span className="muted small"> · {t(`activity.actor.${event.actor.type}`)}</span> : null}</td>
            {showServer ? <td data-label={t("activity.column.server")}>{event.serverId ? <a href={`/server/${event.serverId}`}><code>{event.serverId}</code></a> : <span className="muted">—</span>}</td> : null}
            <td data-label={t("activity.column.details")}>
              <div className="activity-details">
              {Object.entries(event.properties).filter(([, value]) => value !== null).map(([key, value]) => (
                <span key={key} className="activity-property">
                  <span className="muted">{activityPropertyName(t, key)}:</span> <PropertyValue shown={activityPropertyValue(t, event.event, key, value)} stored={value} hint={t("common.hiddenCharacters")} fileName={isFileProperty(event.event, key)} />
                </span>
              ))}
              </div>
            </td>
            <td data-label={t("activity.column.address")}>{event.ip ? <code>{event.ip}</code> : <span className="muted">—</span>}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * One value: Kiln's words as text, with the stored value (a code, a set's word) as their tooltip
 * when all of it is Kiln's; what was recorded as an untrusted label (never in a tooltip, where
 * its hidden characters would go unmarked).
 */
function PropertyValue({ shown, stored, hint, fileName }: { shown: ShownValue; stored: unknown; hint: string; fileName: boolean }) {
  const rest = shown.translated ? (
    <span className="activity-value" title={String(stored)}>
      {shown.text}
    </span>
  ) : (
    <ShownLabel text={shown.text} hint={hint} extra={fileName ? rawByteEscape : undefined} dir="auto" />
  );
  return shown.mention ? (
    <>
      <span className="activity-value" title={shown.translated ? String(stored) : undefined}>{shown.mention}</span> · {rest}
    </>
  ) : (
    rest
  );
}

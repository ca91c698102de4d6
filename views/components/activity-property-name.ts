// A property's name in the activity table, in the reader's language. The names come from one fixed
// list (the event catalogue, core/activity/events), so each has a message
// (`activity.property.<name>`); a name outside it (a row written before the catalogue changed) is
// shown as stored. Values stay as recorded: most are what people typed or named.
import { EVENTS, type EventRule } from "../../core/activity/events";
import type { Translate } from "../../core/i18n/translate";

/** Every property name some event keeps: the keys activity.property.* translates. */
export const PROPERTY_NAMES: ReadonlySet<string> = new Set((Object.values(EVENTS) as EventRule[]).flatMap((rule) => rule.properties));

export function activityPropertyName(t: Translate, name: string): string {
  return PROPERTY_NAMES.has(name) ? t(`activity.property.${name}`) : name;
}

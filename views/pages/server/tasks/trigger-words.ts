// A task's triggers in words for the task list ("Runs when a console line contains "joined" or the
// server crashes"), in the reader's language: each trigger from locales/en.json's
// tasks.triggerWords.*, joined with the locale's own "or" (Intl.ListFormat).
import { intlTag, type Translate } from "../../../../core/i18n/translate";
import type { TriggerValue } from "../../../../islands/tasks/TriggerFields";

/** One trigger in words. */
export function triggerWords(trigger: TriggerValue, t: Translate): string {
  switch (trigger.type) {
    case "console":
      return t(trigger.regex === true ? "tasks.triggerWords.consoleRegex" : "tasks.triggerWords.console", { pattern: String(trigger.pattern ?? "") });
    case "crash":
      return t("tasks.triggerWords.crash");
    case "state":
      return t(`tasks.triggerWords.state.${String(trigger.state)}`);
    case "resource":
      return t(`tasks.triggerWords.resource.${String(trigger.metric)}`, { above: Number(trigger.above), seconds: Number(trigger.forSeconds) });
    case "player":
      return t(`tasks.triggerWords.player.${String(trigger.on)}`);
    default:
      return trigger.type;
  }
}

/** All of a task's triggers in one phrase, or null when it has none. `scheduled`: it also runs on a schedule. */
export function triggersInWords(triggers: readonly TriggerValue[], scheduled: boolean, t: Translate): string | null {
  if (triggers.length === 0) return null;
  const words = triggers.map((trigger) => triggerWords(trigger, t));
  const list = new Intl.ListFormat(intlTag(t.locale), { type: "disjunction" }).format(words);
  return t(scheduled ? "tasks.alsoRunsWhen" : "tasks.runsWhen", { triggers: list });
}

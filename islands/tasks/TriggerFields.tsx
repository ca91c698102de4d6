// One trigger's fields in the Tasks tab's triggers editor (islands/TaskTriggers): a console
// line's pattern and whether it is a regular expression, a state, a resource with its threshold
// and how long, a player joining or leaving. A crash trigger has no field. The shapes are
// core/tasks' triggerSchema; the node checks them again.
import { MAX_FOR_SECONDS, MAX_TRIGGER_PATTERN, PLAYER_EVENTS, RESOURCE_METRICS, TRIGGER_STATES } from "../../core/tasks/constants";
import { CheckField, NumberField, SelectField, TextField } from "../definition/fields";
import { numberValue } from "../definition/step-fields";
import { useT } from "../lib/i18n";

/** A trigger as the editor holds it: its type and that type's fields (numbers may be "" while typed). */
export type TriggerValue = { type: string } & Record<string, unknown>;

/** A new trigger of a type, every field at a sensible start. */
export function newTrigger(type: string): TriggerValue {
  switch (type) {
    case "console":
      return { type, pattern: "", regex: false };
    case "state":
      return { type, state: TRIGGER_STATES[0] };
    case "resource":
      return { type, metric: RESOURCE_METRICS[0], above: 90, forSeconds: 60 };
    case "player":
      return { type, on: PLAYER_EVENTS[0] };
    default:
      return { type };
  }
}

export function TriggerFields({ value, onChange }: { value: TriggerValue; onChange: (value: TriggerValue) => void }) {
  const t = useT();
  const set = (patch: Record<string, unknown>) => onChange({ ...value, ...patch });
  const choices = (prefix: string, values: readonly string[]) => values.map((v) => ({ value: v, label: t(`${prefix}.${v}`) }));
  switch (value.type) {
    case "console":
      return (
        <div className="task-trigger-fields">
          <TextField label={t("tasks.triggers.pattern")} hint={t("tasks.triggers.patternHint")} value={String(value.pattern ?? "")} onChange={(pattern) => set({ pattern })} mono maxLength={MAX_TRIGGER_PATTERN} />
          <CheckField label={t("tasks.triggers.regex")} checked={value.regex === true} onChange={(regex) => set({ regex })} />
        </div>
      );
    case "state":
      return (
        <div className="task-trigger-fields">
          <SelectField label={t("tasks.triggers.state")} value={String(value.state ?? "")} options={choices("tasks.triggers.state", TRIGGER_STATES)} onChange={(state) => set({ state })} />
        </div>
      );
    case "resource":
      return (
        <div className="task-trigger-fields task-trigger-row">
          <SelectField label={t("tasks.triggers.metric")} value={String(value.metric ?? "")} options={choices("tasks.triggers.metric", RESOURCE_METRICS)} onChange={(metric) => set({ metric })} />
          <NumberField label={t("tasks.triggers.above")} value={numberValue(value.above)} min={0} step="any" required onChange={(above) => set({ above })} />
          <NumberField label={t("tasks.triggers.forSeconds")} value={numberValue(value.forSeconds)} min={0} max={MAX_FOR_SECONDS} required onChange={(forSeconds) => set({ forSeconds })} />
        </div>
      );
    case "player":
      return (
        <div className="task-trigger-fields">
          <SelectField label={t("tasks.triggers.on")} value={String(value.on ?? "")} options={choices("tasks.triggers.on", PLAYER_EVENTS)} onChange={(on) => set({ on })} />
        </div>
      );
    default:
      return <p className="muted small task-trigger-fields">{t(`tasks.triggers.about.${value.type === "crash" ? "crash" : "other"}`)}</p>;
  }
}

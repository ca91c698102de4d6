// A condition (PufferPanel v3's `if`: a CEL expression such as `env == 'host' && loader == 'forge'`)
// on a step, a start command or a variable group. Blank means "always"; the field is then left
// out of the JSON, so a template that never used conditions is written as it was.
import { useT } from "../lib/i18n";
import { TextField } from "./fields";
import type { Json } from "./convert";

/** `item` with its condition set, or without one when blank. */
export function withCondition<T extends Json>(item: T, condition: unknown): T {
  const { if: _old, ...rest } = item;
  return typeof condition === "string" && condition.trim() !== "" ? ({ ...rest, if: condition } as unknown as T) : (rest as T);
}

export function ConditionField({ value, onChange }: { value: unknown; onChange: (condition: string) => void }) {
  const t = useT();
  return <TextField label={t("definition.cond.label")} hint={t("definition.cond.hint")} value={typeof value === "string" ? value : ""} mono onChange={onChange} />;
}

/** The condition shown in a list row. */
export function ConditionBadge({ condition }: { condition: string }) {
  const t = useT();
  return (
    <span className="small muted" data-condition="">
      {t("definition.cond.when")} <code>{condition}</code>
    </span>
  );
}

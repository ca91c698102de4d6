// A variable's checks (an egg's Laravel rules, open to Kiln's own templates): lowest and
// highest number, shortest and longest text, and a pattern the value must match. Shown for text
// and whole-number variables; a blank field is no check. The pattern is RE2's syntax, compiled by
// the server when the template is saved (its refusal names the field): the engine is not shipped
// to the browser (core/patterns).
import { useT } from "../lib/i18n";
import { NumberField, TextField } from "./fields";
import type { Json } from "./convert";

type RuleKey = "min" | "max" | "minLength" | "maxLength" | "pattern";

export function VariableRulesFields({ type, rules, onChange }: { type: string; rules: unknown; onChange: (rules: Json | undefined) => void }) {
  const t = useT();
  const current: Json = rules && typeof rules === "object" && !Array.isArray(rules) ? (rules as Json) : {};
  const set = (key: RuleKey, value: unknown) => {
    const next: Json = { ...current };
    if (value === "" || value === undefined) delete next[key];
    else next[key] = value;
    onChange(Object.keys(next).length > 0 ? next : undefined);
  };
  const number = (key: RuleKey) => (typeof current[key] === "number" ? (current[key] as number) : "");
  const pattern = typeof current.pattern === "string" ? current.pattern : "";
  const text = type === "string";
  return (
    <details className="defedit-rules" open={Object.keys(current).length > 0} data-variable-rules="">
      <summary>{t("definition.variable.rules")}</summary>
      <div className="stack">
        <div className="defedit-pair">
          <NumberField label={t("definition.variable.ruleMin")} value={number("min")} onChange={(n) => set("min", n)} />
          <NumberField label={t("definition.variable.ruleMax")} value={number("max")} onChange={(n) => set("max", n)} />
        </div>
        {text ? (
          <>
            <div className="defedit-pair">
              <NumberField label={t("definition.variable.ruleMinLength")} min={0} value={number("minLength")} onChange={(n) => set("minLength", n)} />
              <NumberField label={t("definition.variable.ruleMaxLength")} min={0} value={number("maxLength")} onChange={(n) => set("maxLength", n)} />
            </div>
            <TextField label={t("definition.variable.rulePattern")} hint={t("definition.variable.rulePatternSyntax")} value={pattern} mono onChange={(p) => set("pattern", p)} />
          </>
        ) : null}
      </div>
    </details>
  );
}

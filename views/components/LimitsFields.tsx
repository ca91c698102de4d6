// The four resource limits as form fields, for administrators only: on the add
// server page and on the server's admin card. An empty field (or 0) is no limit.
import { LIMIT_FIELDS, type ResourceLimits } from "../../core/definition";
import { usePage } from "../context";

export function LimitsFields({ limits = {} }: { limits?: ResourceLimits | Record<string, string> }) {
  const { t } = usePage();
  return (
    <fieldset className="stack fieldset" data-testid="limits-fields">
      <legend>{t("limits.title")}</legend>
      <p className="field-hint">{t("limits.hint")}</p>
      {LIMIT_FIELDS.map((field) => {
        const value = limits[field as keyof typeof limits];
        return (
          <label key={field} className="field">
            <span className="field-label">{t(`limits.${field}`)}</span>
            <input type="number" name={field} min={0} step={1} inputMode="numeric" defaultValue={value ? String(value) : ""} placeholder={t("limits.none")} />
          </label>
        );
      })}
    </fieldset>
  );
}

// Password field with a show/hide toggle (the toggle works once the shell runtime loads).
import { Icon } from "../../islands/lib/Icon";
import { eye } from "../../islands/lib/icons";
import { usePage } from "../context";
import type { FormErrors } from "./form-errors";

/** `disabled`: shown but neither typed in nor sent (a secret the viewer may not change). */
export function PasswordInput({ name, label, autoComplete, required = true, disabled, errors }: { name: string; label: string; autoComplete: string; required?: boolean; disabled?: boolean; errors?: FormErrors }) {
  const { t } = usePage();
  return (
    <label className="field">
      <span className="field-label">{label}</span>
      <span className="password-input">
        <input type="password" name={name} autoComplete={autoComplete} required={required} disabled={disabled} {...errors?.input(name)} />
        <button type="button" className="icon-btn" data-password-toggle="" aria-pressed="false" aria-label={t("common.showPassword")} title={t("common.showPassword")}>
          <Icon path={eye} size={20} />
        </button>
      </span>
      {errors?.message(name)}
    </label>
  );
}

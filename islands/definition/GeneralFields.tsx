// The definition's general fields: display name and type, and for a template its readme.
import { useT } from "../lib/i18n";
import { TextAreaField, TextField } from "./fields";

export interface General {
  display: string;
  type: string;
  /** markdown; undefined when the definition is a server's (no readme shown) */
  readme?: string;
}

export function GeneralFields({ value, onChange }: { value: General; onChange: (value: General) => void }) {
  const t = useT();
  return (
    <div className="stack">
      <TextField label={t("definition.general.display")} value={value.display} onChange={(display) => onChange({ ...value, display })} />
      <TextField label={t("definition.general.type")} hint={t("definition.general.typeHint")} value={value.type} mono onChange={(type) => onChange({ ...value, type })} />
      {value.readme !== undefined ? (
        <TextAreaField label={t("definition.general.readme")} hint={t("definition.general.readmeHint")} value={value.readme} rows={8} onChange={(readme) => onChange({ ...value, readme })} />
      ) : null}
    </div>
  );
}

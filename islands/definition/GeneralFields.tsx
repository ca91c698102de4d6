// The definition's general fields: display name and type.
import { useT } from "../lib/i18n";
import { TextField } from "./fields";

export interface General {
  display: string;
  type: string;
}

export function GeneralFields({ value, onChange }: { value: General; onChange: (value: General) => void }) {
  const t = useT();
  return (
    <div className="stack">
      <TextField label={t("definition.general.display")} value={value.display} onChange={(display) => onChange({ ...value, display })} />
      <TextField label={t("definition.general.type")} hint={t("definition.general.typeHint")} value={value.type} mono onChange={(type) => onChange({ ...value, type })} />
    </div>
  );
}

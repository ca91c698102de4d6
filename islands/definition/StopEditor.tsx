// Stop editor: a console command or a signal number; switching resets the value.
import { useT } from "../lib/i18n";
import { STOP_TYPES, switchStopType, type StopSetting } from "./convert";
import { NumberField, Segmented, TextField } from "./fields";

export function StopEditor({ value, onChange }: { value: StopSetting; onChange: (value: StopSetting) => void }) {
  const t = useT();
  return (
    <div className="stack defedit-stop">
      <Segmented
        label={t("definition.stop.type")}
        value={value.type}
        options={STOP_TYPES.map((type) => ({ value: type, label: t(`definition.stop.${type}`) }))}
        onChange={(type) => onChange(switchStopType(value, type))}
      />
      {value.type === "command" ? (
        <TextField label={t("definition.stop.commandLabel")} hint={t("definition.stop.commandHint")} value={value.value} mono onChange={(v) => onChange({ type: "command", value: v })} />
      ) : (
        <NumberField label={t("definition.stop.signalLabel")} hint={t("definition.stop.signalHint")} value={value.value} min={1} max={64} onChange={(v) => onChange({ type: "signal", value: v === "" ? 0 : v })} />
      )}
    </div>
  );
}

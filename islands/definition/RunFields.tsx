// Run configuration: the command line and the working directory. Kiln keeps the command as one
// string with its arguments in it (the node splits it), so there is no separate arguments list.
import { useT } from "../lib/i18n";
import { TextField } from "./fields";

export interface RunConfig {
  command: string;
  workingDirectory: string;
}

export function RunFields({ value, onChange }: { value: RunConfig; onChange: (value: RunConfig) => void }) {
  const t = useT();
  return (
    <div className="stack">
      <TextField label={t("definition.run.command")} hint={t("definition.run.commandHint")} value={value.command} mono onChange={(command) => onChange({ ...value, command })} />
      <TextField label={t("definition.run.workingDirectory")} hint={t("definition.run.workingDirectoryHint")} value={value.workingDirectory} mono onChange={(workingDirectory) => onChange({ ...value, workingDirectory })} />
    </div>
  );
}

// Run configuration: the command, its arguments and the working directory. Kiln stores the command
// line as one string (the node splits it into words, after substituting variables); the editor
// shows it as the program and a list of arguments and writes it back with each word quoted as needed.
import { joinCommandLine, splitCommandLine } from "../../core/definition/command-line";
import { useT } from "../lib/i18n";
import { TextField } from "./fields";
import { StringList } from "./StringList";

export interface RunConfig {
  command: string;
  workingDirectory: string;
}

function words(line: string): string[] | null {
  try {
    return splitCommandLine(line);
  } catch {
    return null;
  }
}

export function RunFields({ value, onChange }: { value: RunConfig; onChange: (value: RunConfig) => void }) {
  const t = useT();
  const argv = words(value.command);
  const setArgv = (program: string, args: readonly string[]) =>
    onChange({ ...value, command: program === "" && args.length === 0 ? "" : joinCommandLine([program, ...args]) });
  return (
    <div className="stack">
      {argv ? (
        <>
          <TextField label={t("definition.run.command")} hint={t("definition.run.commandHint")} value={argv[0] ?? ""} mono onChange={(program) => setArgv(program, argv.slice(1))} />
          <StringList label={t("definition.run.arguments")} value={argv.slice(1)} mono onChange={(args) => setArgv(argv[0] ?? "", args)} />
          <p className="small muted defedit-preview">
            {t("definition.run.commandLine")} <code data-command-line="">{value.command}</code>
          </p>
        </>
      ) : (
        // Not splittable (an unterminated quote): edit it as the line it is until it is whole again.
        <TextField label={t("definition.run.commandLine")} hint={t("definition.run.unsplittable")} value={value.command} mono onChange={(command) => onChange({ ...value, command })} />
      )}
      <TextField label={t("definition.run.workingDirectory")} hint={t("definition.run.workingDirectoryHint")} value={value.workingDirectory} mono onChange={(workingDirectory) => onChange({ ...value, workingDirectory })} />
    </div>
  );
}

// Run configuration: the command, its arguments, the working directory and the console. Kiln
// stores the command line as one string (the node splits it into words, after substituting
// variables); the editor shows it as the program and a list of arguments and writes it back with
// each word quoted as needed. A PufferPanel v3 template may instead list several commands with
// conditions (the first whose condition holds starts); those are edited as entries.
import { useState } from "react";
import { CONSOLE_TYPES } from "../../core/definition/constants";
import { joinCommandLine, splitCommandLine } from "../../core/definition/command-line";
import { useT } from "../lib/i18n";
import type { Json } from "./convert";
import { ConditionField, withCondition } from "./ConditionField";
import { AddButton, RemoveButton, SelectField, TextField, removeAt, replaceAt } from "./fields";
import { StringList } from "./StringList";

export interface RunConfig {
  command: string;
  commandEntries: Json[] | null;
  stdin: Json | null;
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
  const set = (patch: Partial<RunConfig>) => onChange({ ...value, ...patch });
  return (
    <div className="stack">
      {value.commandEntries ? (
        <CommandEntries value={value.commandEntries} onChange={(commandEntries) => set({ commandEntries })} />
      ) : (
        <>
          <CommandLine value={value.command} onChange={(command) => set({ command })} />
          <div>
            <button type="button" className="btn" data-use-command-entries="" onClick={() => set({ commandEntries: [{ command: value.command }], command: "" })}>
              {t("definition.runCommands.useList")}
            </button>
          </div>
        </>
      )}
      <TextField label={t("definition.run.workingDirectory")} hint={t("definition.run.workingDirectoryHint")} value={value.workingDirectory} mono onChange={(workingDirectory) => set({ workingDirectory })} />
      <ConsoleFields value={value.stdin} onChange={(stdin) => set({ stdin })} />
    </div>
  );
}

function CommandLine({ value, onChange }: { value: string; onChange: (command: string) => void }) {
  const t = useT();
  const argv = words(value);
  // The arguments as shown: a blank entry (just added, or emptied) stays on screen, but the line
  // written back leaves it out, so an unfilled entry never becomes an empty argument ('').
  const [shown, setShown] = useState<{ line: string; args: string[] } | null>(null);
  const args = shown && shown.line === value ? shown.args : (argv?.slice(1) ?? []);
  const setArgv = (program: string, next: readonly string[]) => {
    const kept = next.filter((arg) => arg.trim() !== "");
    const line = program === "" && kept.length === 0 ? "" : joinCommandLine([program, ...kept]);
    setShown({ line, args: [...next] });
    onChange(line);
  };
  // Not splittable (an unterminated quote): edit it as the line it is until it is whole again.
  if (!argv) return <TextField label={t("definition.run.commandLine")} hint={t("definition.run.unsplittable")} value={value} mono onChange={onChange} />;
  return (
    <>
      <TextField label={t("definition.run.command")} hint={t("definition.run.commandHint")} value={argv[0] ?? ""} mono onChange={(program) => setArgv(program, args)} />
      <StringList label={t("definition.run.arguments")} hint={t("definition.run.argumentsHint")} value={args} mono onChange={(next) => setArgv(argv[0] ?? "", next)} />
      <p className="small muted defedit-preview">
        {t("definition.run.commandLine")} <code data-command-line="">{value}</code>
      </p>
    </>
  );
}

/** v3's start commands: each a line and a condition; fields the editor does not show (an entry's own stdin) are kept. */
function CommandEntries({ value, onChange }: { value: Json[]; onChange: (value: Json[]) => void }) {
  const t = useT();
  return (
    <fieldset className="bare defedit-group" data-command-entries="">
      <legend className="field-label">{t("definition.runCommands.label")}</legend>
      <p className="field-hint">{t("definition.runCommands.hint")}</p>
      {value.map((entry, i) => (
        <div className="stack card defedit-entry" key={i} data-command-entry={i}>
          <div className="defedit-row defedit-row-1">
            <TextField label={t("definition.runCommands.command")} value={typeof entry.command === "string" ? entry.command : ""} mono onChange={(command) => onChange(replaceAt(value, i, { ...entry, command }))} />
            <RemoveButton label={t("definition.remove")} onClick={() => onChange(removeAt(value, i))} />
          </div>
          <ConditionField value={entry.if} onChange={(condition) => onChange(replaceAt(value, i, withCondition(entry, condition)))} />
        </div>
      ))}
      <div>
        <AddButton label={t("definition.runCommands.add")} onClick={() => onChange([...value, { command: "" }])} />
      </div>
    </fieldset>
  );
}

/** run.stdin: the process's input (nothing written), or a network console on the node with its address. */
function ConsoleFields({ value, onChange }: { value: Json | null; onChange: (value: Json | null) => void }) {
  const t = useT();
  const type = typeof value?.type === "string" ? value.type : "stdin";
  const field = (key: "ip" | "port" | "password") => (
    <TextField label={t(`definition.stdin.${key}`)} value={value && value[key] !== undefined ? String(value[key]) : ""} mono onChange={(v) => onChange({ ...(value ?? {}), type, [key]: v })} />
  );
  return (
    <fieldset className="bare defedit-group" data-console="">
      <legend className="field-label">{t("definition.stdin.label")}</legend>
      <SelectField
        label={t("definition.stdin.type")}
        hint={t("definition.stdin.hint")}
        value={type}
        options={CONSOLE_TYPES.map((c) => ({ value: c, label: t(`definition.stdin.types.${c}`) }))}
        // The process's input is what no stdin means: a template that named none stays without one.
        onChange={(next) => onChange(next === "stdin" && value === null ? null : { ...(value ?? {}), type: next })}
      />
      {type !== "stdin" ? (
        <>
          {field("ip")}
          {field("port")}
          {field("password")}
        </>
      ) : null}
    </fieldset>
  );
}

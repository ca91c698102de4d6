// The editor form of a server definition: one section at a time, chosen from a side list (the
// template editor's sections). A server has a single environment; a template (its form
// carries `environments`) has the supported list and a default, and a readme.
import { useId } from "react";
import { useT } from "../lib/i18n";
import type { DefinitionForm as Form } from "./convert";
import { EnvironmentEditor } from "./EnvironmentEditor";
import { EnvironmentList } from "./EnvironmentList";
import { GeneralFields } from "./GeneralFields";
import { GroupList } from "./GroupList";
import { KeyValueEditor } from "./KeyValueEditor";
import { RunFields } from "./RunFields";
import { StepList } from "./StepList";
import { StopEditor } from "./StopEditor";
import { VariableList } from "./VariableList";

const COMMON = ["general", "variables", "install", "run", "shutdown", "pre", "post", "environmentVars"] as const;
export const SECTIONS = [...COMMON, "environment"] as const;
export const TEMPLATE_SECTIONS = [...COMMON, "groups", "environments"] as const;
export type Section = (typeof SECTIONS)[number] | (typeof TEMPLATE_SECTIONS)[number];

export interface DefinitionFormProps {
  value: Form;
  onChange: (value: Form) => void;
  section: Section;
  onSectionChange: (section: Section) => void;
}

export function DefinitionForm({ value, onChange, section, onSectionChange }: DefinitionFormProps) {
  const t = useT();
  const id = useId();
  const set = (patch: Partial<Form>) => onChange({ ...value, ...patch });
  const environments = value.environments;
  const sections = environments ? TEMPLATE_SECTIONS : SECTIONS;
  const count: Partial<Record<Section, number>> = {
    variables: value.variables.length,
    install: value.install.length,
    pre: value.pre.length,
    post: value.post.length,
    environmentVars: value.environmentVars.length,
    environments: environments?.list.length,
    groups: value.groups?.length,
  };

  return (
    <div className="defedit-form">
      <nav className="defedit-nav" role="tablist" aria-orientation="vertical" aria-label={t("definition.sections")}>
        {sections.map((s) => (
          <button
            key={s}
            type="button"
            role="tab"
            id={`${id}-${s}`}
            aria-selected={s === section}
            aria-controls={`${id}-panel`}
            data-section={s}
            onClick={() => onSectionChange(s)}
          >
            <span>{t(`definition.section.${s}`)}</span>
            {count[s] ? <span className="defedit-count">{count[s]}</span> : null}
          </button>
        ))}
      </nav>
      <section className="stack defedit-panel" role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-${section}`} data-panel={section}>
        <div className="defedit-panel-head">
          <h3>{t(`definition.section.${section}`)}</h3>
          <p className="muted small">{t(`definition.intro.${section}`)}</p>
        </div>
        {section === "general" ? <GeneralFields value={{ display: value.display, type: value.type, readme: environments ? value.readme : undefined }} onChange={({ display, type, readme }) => set({ display, type, readme: readme ?? value.readme })} /> : null}
        {section === "variables" ? <VariableList value={value.variables} onChange={(variables) => set({ variables })} /> : null}
        {section === "install" ? <StepList label={t("definition.section.install")} value={value.install} onChange={(install) => set({ install })} /> : null}
        {section === "run" ? <RunFields value={{ command: value.command, commandEntries: value.commandEntries, stdin: value.stdin, workingDirectory: value.workingDirectory }} onChange={set} /> : null}
        {section === "groups" ? <GroupList value={value.groups ?? []} variables={value.variables.map((v) => v.name)} onChange={(groups) => set({ groups })} /> : null}
        {section === "shutdown" ? <StopEditor value={value.stop} onChange={(stop) => set({ stop })} /> : null}
        {section === "pre" ? <StepList label={t("definition.section.pre")} value={value.pre} onChange={(pre) => set({ pre })} /> : null}
        {section === "post" ? <StepList label={t("definition.section.post")} value={value.post} onChange={(post) => set({ post })} /> : null}
        {section === "environmentVars" ? (
          <KeyValueEditor
            label={t("definition.section.environmentVars")}
            keyLabel={t("definition.envVar.name")}
            valueLabel={t("definition.envVar.value")}
            value={value.environmentVars}
            onChange={(environmentVars) => set({ environmentVars })}
          />
        ) : null}
        {section === "environment" ? <EnvironmentEditor value={value.environment} onChange={(environment) => set({ environment })} /> : null}
        {section === "environments" && environments ? <EnvironmentList value={environments} onChange={(next) => set({ environments: next })} /> : null}
      </section>
    </div>
  );
}

// A server's single environment: standard, tty or docker; docker adds the
// image, network, volume bindings and port bindings.
import { DEFAULT_DOCKER_IMAGE, DOCKER_NETWORK_MODES, ENVIRONMENT_TYPES } from "../../core/definition/constants";
import { useT } from "../lib/i18n";
import type { EnvironmentForm } from "./convert";
import { SelectField, TextField } from "./fields";
import { KeyValueEditor } from "./KeyValueEditor";
import { PortBindingList } from "./PortBindingList";

/** `types`: the types it may take (a template's list holds each type once); all by default. */
export function EnvironmentEditor({ value, onChange, types = ENVIRONMENT_TYPES }: { value: EnvironmentForm; onChange: (value: EnvironmentForm) => void; types?: readonly string[] }) {
  const t = useT();
  const set = (patch: Partial<EnvironmentForm>) => onChange({ ...value, ...patch });
  return (
    <div className="stack">
      <SelectField
        label={t("definition.env.type")}
        value={value.type}
        options={types.map((type) => ({ value: type, label: t(`definition.envType.${type}`) }))}
        onChange={(type) => set({ type })}
      />
      {value.type === "docker" ? (
        <>
          <TextField label={t("definition.env.image")} hint={t("definition.env.imageHint")} value={value.image} placeholder={DEFAULT_DOCKER_IMAGE} mono onChange={(image) => set({ image })} />
          <div className="defedit-pair">
            <SelectField
              label={t("definition.env.networkMode")}
              value={value.networkMode}
              options={DOCKER_NETWORK_MODES.map((mode) => ({ value: mode, label: mode }))}
              onChange={(networkMode) => set({ networkMode })}
            />
            <TextField label={t("definition.env.networkName")} value={value.networkName} mono onChange={(networkName) => set({ networkName })} />
          </div>
          <KeyValueEditor
            label={t("definition.env.bindings")}
            keyLabel={t("definition.env.hostPath")}
            valueLabel={t("definition.env.containerPath")}
            value={value.bindings}
            onChange={(bindings) => set({ bindings })}
          />
          <PortBindingList value={value.portBindings} onChange={(portBindings) => set({ portBindings })} />
        </>
      ) : (
        <p className="muted small">{t(value.type === "tty" ? "definition.env.ttyHint" : "definition.env.standardHint")}</p>
      )}
    </div>
  );
}

// Settings tab (spec section 2 "Server settings"): the variables the user may edit, and Save.
import type { Variable } from "../../../core/definition";
import { usePage } from "../../context";
import { VariableField } from "../../components/VariableField";

export function SettingsTab({ serverId, variables }: { serverId: string; variables: Record<string, Variable> }) {
  const { t } = usePage();
  const entries = Object.entries(variables);
  if (entries.length === 0) return <section className="card"><p className="muted">{t("serverSettings.none")}</p></section>;
  return (
    <form method="post" action={`/server/${serverId}/settings`} className="card stack form-narrow" data-testid="settings">
      <h2>{t("serverSettings.title")}</h2>
      {entries.map(([name, variable]) => (
        <VariableField key={name} name={name} variable={variable} />
      ))}
      <div><button type="submit" className="btn btn-primary">{t("common.save")}</button></div>
    </form>
  );
}

// Settings tab: the variables the user may edit, in the
// template's groups where it has them (hidden while a group's condition does not hold), and Save.
import type { Variable, VariableGroup } from "../../../core/definition";
import { usePage } from "../../context";
import { VariableField } from "../../../islands/lib/VariableField";
import { GroupedVariables } from "../../components/GroupedVariables";

export function SettingsTab({ serverId, variables, groups }: { serverId: string; variables: Record<string, Variable>; groups?: VariableGroup[] }) {
  const { t } = usePage();
  const entries = Object.entries(variables);
  if (entries.length === 0) return <section className="card"><p className="muted">{t("serverSettings.none")}</p></section>;
  return (
    <form method="post" action={`/server/${serverId}/settings`} className="card stack form-narrow" data-testid="settings">
      <h2>{t("serverSettings.title")}</h2>
      {groups?.length ? (
        <GroupedVariables data={variables} groups={groups} values={{}} />
      ) : (
        entries.map(([name, variable]) => <VariableField key={name} name={name} variable={variable} hint={t("common.hiddenCharacters")} />)
      )}
      <div><button type="submit" className="btn btn-primary">{t("common.save")}</button></div>
    </form>
  );
}

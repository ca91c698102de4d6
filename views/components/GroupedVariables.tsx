// A server's variables in PufferPanel v3's groups, on Add server and on the Settings tab: live (the
// VariableGroups island) only when a group has a condition to follow, else the same markup with
// no script.
import type { Variable, VariableGroup } from "../../core/definition";
import { usePage } from "../context";
import { Island } from "./Island";
import VariableGroups, { VariableGroupsView } from "../../islands/VariableGroups";

export function GroupedVariables({ data, groups, values }: { data: Record<string, Variable>; groups: VariableGroup[]; /** what the form sent last, by variable name */ values: Record<string, string> }) {
  const { t } = usePage();
  const props = { data, groups, values, otherLabel: t("addServer.ungrouped"), hiddenHint: t("common.hiddenCharacters") };
  return groups.some((group) => group.if?.trim()) ? <Island island={VariableGroups} props={props} /> : <VariableGroupsView {...props} />;
}

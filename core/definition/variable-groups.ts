// Variable groups (PufferPanel v3's `groups`) as a form shows them: in their `order`, each with
// the variables it names, then the variables no group names; a group whose `if` does not hold is
// hidden. As in PufferPanel's web UI, the condition reads the variables' values alone (as the
// form holds them), and a condition that cannot be evaluated leaves its group shown, so no field
// is ever out of reach. The Add server form (islands/VariableGroups) and the panel's creation
// check (server/services/servers/definition) both read groups through here, so they agree.
// Browser-safe: no zod, only types from the schema.
import { evaluateOnValues } from "./conditions";
import type { Values } from "./substitute";
import type { Variable, VariableGroup } from "./template";

export interface GroupView {
  display: string;
  description: string;
  /** Whether its condition holds for the values (or it has none, or it cannot be evaluated). */
  visible: boolean;
  /** The group's variables that the definition has, each shown in one group only. */
  variables: string[];
}

export interface GroupsLayout {
  groups: GroupView[];
  /** Variables no group names, shown after the groups. */
  ungrouped: string[];
}

/** A form's value (text, or the stored value) as the variable's type reads it, for conditions. */
export function typedFormValue(variable: Variable, raw: unknown): string | number | boolean {
  const value = raw ?? variable.value;
  switch (variable.type) {
    case "integer":
      return typeof value === "number" ? value : /^\s*-?\d+\s*$/.test(String(value)) ? Number(value) : String(value);
    case "boolean":
      return value === true || value === "true";
    case "option":
      return variable.options?.find((o) => String(o.value) === String(value))?.value ?? String(value);
    default:
      return String(value);
  }
}

/** Every variable's value for conditions: `raw` (form text by name) over the stored values. */
export function formValues(data: Record<string, Variable>, raw: Record<string, unknown>): Values {
  return Object.fromEntries(Object.entries(data).map(([name, variable]) => [name, typedFormValue(variable, Object.hasOwn(raw, name) ? raw[name] : undefined)]));
}

export function groupVisible(group: Pick<VariableGroup, "if">, values: Values): boolean {
  try {
    return evaluateOnValues(group.if, values);
  } catch {
    return true;
  }
}

/**
 * The groups in their order with what each shows for `values`. A variable named by several
 * groups is shown in the first visible one (else the first), so the form holds one field for it.
 */
export function layoutGroups(data: Record<string, Variable>, groups: VariableGroup[] | undefined, values: Values): GroupsLayout {
  const sorted = [...(groups ?? [])].sort((a, b) => a.order - b.order);
  const visible = sorted.map((group) => groupVisible(group, values));
  const home = new Map<string, number>();
  for (const pass of [true, false]) {
    sorted.forEach((group, i) => {
      if (visible[i] !== pass) return;
      for (const name of group.variables) if (Object.hasOwn(data, name) && !home.has(name)) home.set(name, i);
    });
  }
  return {
    groups: sorted.map((group, i) => ({ display: group.display, description: group.description, visible: visible[i]!, variables: [...home].filter(([, at]) => at === i).map(([name]) => name) })),
    ungrouped: Object.keys(data).filter((name) => !home.has(name)),
  };
}

/** Variables shown only in groups whose condition does not hold for `values`. */
export function hiddenVariables(data: Record<string, Variable>, groups: VariableGroup[] | undefined, values: Values): Set<string> {
  const layout = layoutGroups(data, groups, values);
  return new Set(layout.groups.filter((g) => !g.visible).flatMap((g) => g.variables));
}

// A server's variables in their groups (the Add server form and the Settings tab) (PufferPanel v3's `groups`, read through
// core/definition/variable-groups): each group a fieldset in its order, then the variables no
// group names. A group whose `if` does not hold for the values in the form is hidden, and shown
// again as soon as a value makes it hold, the condition read as PufferPanel's web UI reads it
// (the variables' values alone). Hidden fields keep their values and are sent, as PufferPanel's
// form sends them, but are not required: the panel gives an empty one the template's value.
//
// Without script every group shows (a hidden group's fields could never be reached otherwise);
// with it, the groups the server found hidden are hidden from the first paint by CSS
// (@media (scripting: enabled)), before this island has loaded. Templates whose groups have no
// `if` render the same markup without the island (no script at all).
import { useEffect, useRef, useState, type FormEvent } from "react";
import type { Variable, VariableGroup } from "../core/definition/template";
import { formValues, layoutGroups } from "../core/definition/variable-groups";
import { VARIABLE_FIELD_PREFIX } from "../core/definition/variable-form";
import { VariableField } from "./lib/VariableField";
import { ShownLabel } from "./lib/ShownLabel";
import { defineIsland } from "./define";

export interface VariableGroupsProps {
  data: Record<string, Variable>;
  groups: VariableGroup[];
  /** The form's values as last sent (a refused submit shown again), by variable name. */
  values: Record<string, string>;
  /** The heading of the variables no group names (a prop, so the markup renders without the island too). */
  otherLabel: string;
  /** The tooltip of a name shown with escapes (the template's names are untrusted labels: ./lib/ShownLabel). */
  hiddenHint: string;
}

const PREFIX = VARIABLE_FIELD_PREFIX;
type Field = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/** The values the fields hold now (typed before the island hydrated, too); an unticked box is "false". */
function readFields(root: HTMLElement): Record<string, string> {
  const out: Record<string, string> = {};
  for (const field of root.querySelectorAll<Field>(`[name^="${PREFIX}"]`)) {
    if (field instanceof HTMLInputElement && field.type === "checkbox" && !field.checked) continue;
    out[field.name.slice(PREFIX.length)] = field.value;
  }
  return out;
}

export function VariableGroupsView({ data, groups, values, otherLabel, hiddenHint }: VariableGroupsProps) {
  const root = useRef<HTMLDivElement>(null);
  const [current, setCurrent] = useState(values);
  useEffect(() => {
    if (root.current) setCurrent(readFields(root.current));
  }, []);
  const layout = layoutGroups(data, groups, formValues(data, current));

  function changed(event: FormEvent<HTMLDivElement>) {
    const field = event.target as Field;
    if (!field.name?.startsWith(PREFIX)) return;
    const value = field instanceof HTMLInputElement && field.type === "checkbox" ? String(field.checked) : field.value;
    setCurrent((before) => ({ ...before, [field.name.slice(PREFIX.length)]: value }));
  }

  // Each field is given the value it holds now, not the one the page came with: the browser's
  // runtime (preact/compat) re-applies a select's defaultValue on every render of the island,
  // which would otherwise undo the user's choice.
  const field = (name: string, shown: boolean) => <VariableField key={name} name={name} variable={shown ? data[name]! : { ...data[name]!, required: false }} value={current[name] ?? values[name]} hint={hiddenHint} />;
  return (
    <div ref={root} className="stack variable-groups" onChange={changed} onInput={changed}>
      {layout.groups.map((group, i) =>
        group.variables.length === 0 ? null : (
          <fieldset key={i} className="stack fieldset variable-group" data-group-hidden={group.visible ? undefined : ""} data-testid={`variable-group-${i}`}>
            <legend><ShownLabel text={group.display} hint={hiddenHint} dir="auto" /></legend>
            {group.description ? <p className="field-hint"><ShownLabel text={group.description} hint={hiddenHint} dir="auto" /></p> : null}
            {group.variables.map((name) => field(name, group.visible))}
          </fieldset>
        ),
      )}
      {layout.ungrouped.length > 0 ? (
        <fieldset className="stack fieldset variable-group" data-testid="variable-group-other">
          <legend>{otherLabel}</legend>
          {layout.ungrouped.map((name) => field(name, true))}
        </fieldset>
      ) : null}
    </div>
  );
}

export default defineIsland<VariableGroupsProps>({
  name: "VariableGroups",
  component: VariableGroupsView,
  messages: [],
  hydrate: "idle",
});

// What "Best node" placement reads of a node, on the node's settings form: its tags, typed as one
// comma-separated field ("location=eu, ssd"; the route makes the list the service takes), and
// draining, a checkbox. Only an existing node's form shows them: a new node starts untagged.
import { usePage } from "../context";
import type { FormErrors } from "./form-errors";
import { TextField } from "./TextField";

export const PLACEMENT_FIELDS = ["tags", "draining"] as const;

/** What the fields show: the node's, or what was posted when the update came back with an error. */
export interface NodePlacementValues {
  tags: string;
  draining: boolean;
}

export function NodePlacementFields({ values, errors }: { values: NodePlacementValues; errors: FormErrors }) {
  const { t } = usePage();
  return (
    <>
      <TextField name="tags" label={t("nodes.field.tags")} errors={errors} hint={t("nodes.tagsHint")} defaultValue={values.tags} spellCheck={false} autoComplete="off" autoCapitalize="off" />
      <div className="field">
        <label className="check-row">
          <input type="checkbox" name="draining" defaultChecked={values.draining} aria-describedby="draining-hint" />
          <span>{t("nodes.field.draining")}</span>
        </label>
        <span className="field-hint" id="draining-hint">{t("nodes.drainingHint")}</span>
      </div>
    </>
  );
}

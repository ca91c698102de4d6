// Step list: each item shows its type and can be edited in an overlay,
// moved, removed or added. A new step starts as a command and joins the list only when applied,
// so cancelling it leaves nothing behind. The types and their fields come from a
// catalogue: a template's steps unless told (a task's operations use the same list).
import { useT } from "../lib/i18n";
import { Icon } from "../lib/Icon";
import { arrowDown, arrowUp } from "../lib/icons";
import type { StepValue } from "./convert";
import { ConditionBadge } from "./ConditionField";
import { TEMPLATE_STEPS, isKnownType, newStep, stepForEditing, stepForSaving, stepSummary, type StepCatalogue } from "./step-fields";
import { AddButton, EditButton, RemoveButton, moveBy, removeAt } from "./fields";
import { StepForm } from "./StepForm";
import { SubDialog } from "./SubDialog";
import { useListEditing } from "./useListEditing";

export interface StepListProps {
  value: readonly StepValue[];
  onChange: (value: StepValue[]) => void;
  label: string;
  catalogue?: StepCatalogue;
}

export function StepList({ value, onChange, label, catalogue = TEMPLATE_STEPS }: StepListProps) {
  const t = useT();
  const list = useListEditing(value, onChange);
  const { editing } = list;

  return (
    <div className="stack defedit-steps" aria-label={label} role="group">
      {value.length === 0 ? (
        <p className="muted">{t("definition.step.empty")}</p>
      ) : (
        <ol className="list defedit-items">
          {value.map((step, i) => (
            <li className="list-row" key={i} data-step-type={step.type}>
              <div>
                <strong>{isKnownType(step.type, catalogue) ? t(`definition.stepType.${step.type}`) : step.type}</strong>
                <code className="small defedit-summary">{stepSummary(step, catalogue, (key, option) => t(`definition.stepValue.${key}.${option}`))}</code>
                {typeof step.if === "string" && step.if.trim() ? <ConditionBadge condition={step.if} /> : null}
              </div>
              <div className="defedit-item-actions">
                <button type="button" className="icon-btn" title={t("definition.moveUp")} aria-label={t("definition.moveUp")} disabled={i === 0} onClick={() => onChange(moveBy(value, i, -1))}>
                  <Icon path={arrowUp} size={20} />
                </button>
                <button type="button" className="icon-btn" title={t("definition.moveDown")} aria-label={t("definition.moveDown")} disabled={i === value.length - 1} onClick={() => onChange(moveBy(value, i, 1))}>
                  <Icon path={arrowDown} size={20} />
                </button>
                <EditButton label={t("definition.edit")} onClick={() => list.edit(i, stepForEditing(step, catalogue))} />
                <RemoveButton label={t("definition.remove")} onClick={() => onChange(removeAt(value, i))} />
              </div>
            </li>
          ))}
        </ol>
      )}
      <div>
        <AddButton label={t("definition.step.add")} onClick={() => list.add(newStep(undefined, catalogue))} />
      </div>
      {editing ? (
        <SubDialog title={t(editing.isNew ? "definition.step.addTitle" : "definition.step.editTitle")} onApply={() => list.apply(stepForSaving(editing.draft, catalogue))} onCancel={list.cancel}>
          <StepForm value={editing.draft} catalogue={catalogue} onChange={list.setDraft} />
        </SubDialog>
      ) : null}
    </div>
  );
}

// The node form shared by Add node and the node screen: name, public and private address, SFTP
// port and the optional internal address. Posted as a plain form; the route validates it with the
// same schema as /api/nodes.
import { usePage } from "../context";
import { formErrors, type FormError, type FormErrors } from "./form-errors";
import { TextField } from "./TextField";
import { NodePlacementFields, PLACEMENT_FIELDS, type NodePlacementValues } from "./NodePlacementFields";

export const NODE_FIELDS = ["name", "publicHost", "publicPort", "privateHost", "privatePort", "sftpPort", "internalHost"] as const;
export type NodeField = (typeof NODE_FIELDS)[number];
/** What the form shows: the stored node, or what was posted when it came back with an error. */
export type NodeFormValues = Record<NodeField, string>;

/** Ports a new node starts with: the daemon's own defaults, so an untouched config file matches. */
export const NEW_NODE_VALUES: NodeFormValues = { name: "", publicHost: "", publicPort: "8081", privateHost: "", privatePort: "8081", sftpPort: "5657", internalHost: "" };

export interface NodeFormProps {
  action: string;
  values: NodeFormValues;
  submitLabel: string;
  /** false: shown, not editable (a viewer without nodes.edit) */
  canEdit?: boolean;
  /** The local node's private address and SFTP port are set by the panel at every start. */
  panelManaged?: boolean;
  /** false: the addresses and ports are shown, not editable (only an administrator moves a node). */
  canMove?: boolean;
  /** the last submit's refusal: shown at its field (an error of no field is the page's to show) */
  error?: FormError;
  /** An existing node's tags and draining (./NodePlacementFields); absent: the fields are not shown. */
  placement?: NodePlacementValues;
}

function Field({ name, label, type = "text", value, hint, readOnly, required = true, errors }: { name: NodeField; label: string; type?: "text" | "number"; value: string; hint?: string; readOnly?: boolean; required?: boolean; errors: FormErrors }) {
  const port = type === "number";
  return (
    <TextField
      type={type}
      name={name}
      label={label}
      errors={errors}
      hint={hint}
      defaultValue={value}
      required={required}
      readOnly={readOnly}
      min={port ? 1 : undefined}
      max={port ? 65535 : undefined}
      inputMode={port ? "numeric" : undefined}
      spellCheck={false}
      autoComplete="off"
    />
  );
}

export function NodeForm({ action, values, submitLabel, canEdit = true, panelManaged = false, canMove = true, error, placement }: NodeFormProps) {
  const { t } = usePage();
  const label = (field: NodeField) => t(`nodes.field.${field}`);
  const errors = formErrors("node", error, placement ? [...NODE_FIELDS, ...PLACEMENT_FIELDS] : NODE_FIELDS);
  return (
    <form method="post" action={action} className="stack node-form">
      <fieldset disabled={!canEdit} className="stack bare">
        <Field name="name" label={label("name")} value={values.name} errors={errors} />
        <div className="node-address">
          <Field name="publicHost" label={label("publicHost")} value={values.publicHost} readOnly={!canMove} errors={errors} />
          <Field name="publicPort" label={label("publicPort")} type="number" value={values.publicPort} readOnly={!canMove} errors={errors} />
          <span className="field-hint node-address-hint">{t("nodes.publicHint", { ip: "{ip}" })}</span>
        </div>
        <div className="node-address">
          <Field name="privateHost" label={label("privateHost")} value={values.privateHost} readOnly={panelManaged || !canMove} errors={errors} />
          <Field name="privatePort" label={label("privatePort")} type="number" value={values.privatePort} readOnly={panelManaged || !canMove} errors={errors} />
          <span className="field-hint node-address-hint">{t(panelManaged ? "nodes.localManagedHint" : "nodes.privateHint")}</span>
        </div>
        <Field name="sftpPort" label={label("sftpPort")} type="number" value={values.sftpPort} readOnly={panelManaged || !canMove} errors={errors} />
        <Field name="internalHost" label={label("internalHost")} value={values.internalHost} required={false} readOnly={!canMove} hint={t("nodes.internalHint")} errors={errors} />
        {canEdit && !canMove ? <p className="field-hint">{t("nodes.addressAdminOnly")}</p> : null}
        {placement ? <NodePlacementFields values={placement} errors={errors} /> : null}
        {canEdit ? <div><button type="submit" className="btn btn-primary">{submitLabel}</button></div> : null}
      </fieldset>
    </form>
  );
}

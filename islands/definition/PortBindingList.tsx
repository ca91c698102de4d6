// Port-binding list: host, outside port, inside port and protocol per row.
// New rows bind on {ip} over tcp; tcp and udp are offered, other protocols may be typed.
import { useId } from "react";
import { PORT_PROTOCOLS } from "../../core/definition/constants";
import { useT } from "../lib/i18n";
import { emptyPortRow, type PortRow } from "./convert";
import { AddButton, RemoveButton, Suggestions, removeAt, replaceAt } from "./fields";
import { useFocusAdded } from "./focus-added";

export function PortBindingList({ value, onChange }: { value: readonly PortRow[]; onChange: (value: PortRow[]) => void }) {
  const t = useT();
  const protocolsId = useId();
  const labels = { host: t("definition.port.host"), outside: t("definition.port.outside"), inside: t("definition.port.inside"), protocol: t("definition.port.protocol") };
  const edit = (i: number, row: PortRow, field: keyof typeof labels, text: string) => onChange(replaceAt(value, i, { ...row, [field]: text }));
  const { list, added } = useFocusAdded<HTMLFieldSetElement>(value.length);
  return (
    <fieldset className="bare defedit-group" ref={list}>
      <legend className="field-label">{t("definition.env.portBindings")}</legend>
      <Suggestions id={protocolsId} values={PORT_PROTOCOLS} />
      {value.length === 0 ? (
        <p className="muted small">{t("definition.port.empty")}</p>
      ) : (
        <div className="defedit-row defedit-row-ports defedit-row-head" aria-hidden="true">
          <span>{labels.host}</span>
          <span>{labels.outside}</span>
          <span>{labels.inside}</span>
          <span>{labels.protocol}</span>
        </div>
      )}
      {value.map((row, i) => (
        <div className="defedit-row defedit-row-ports" key={i} data-port-row="" data-entry="">
          <input type="text" className="defedit-mono" aria-label={`${labels.host} ${i + 1}`} value={row.host} spellCheck={false} onChange={(e) => edit(i, row, "host", e.target.value)} />
          <input type="number" min={1} max={65535} data-entry-focus="" aria-label={`${labels.outside} ${i + 1}`} value={row.outside} onChange={(e) => edit(i, row, "outside", e.target.value)} />
          <input type="number" min={1} max={65535} aria-label={`${labels.inside} ${i + 1}`} value={row.inside} placeholder={row.outside} onChange={(e) => edit(i, row, "inside", e.target.value)} />
          <input type="text" aria-label={`${labels.protocol} ${i + 1}`} value={row.protocol} list={protocolsId} spellCheck={false} onChange={(e) => edit(i, row, "protocol", e.target.value)} />
          <RemoveButton label={t("definition.remove")} onClick={() => onChange(removeAt(value, i))} />
        </div>
      ))}
      <div>
        <AddButton label={t("definition.port.add")} onClick={() => (added(), onChange([...value, emptyPortRow()]))} />
      </div>
    </fieldset>
  );
}

// Permissions of one entry: read, write and execute for owner, group and others as
// boxes, and the same as three octal digits; either changes the other. Setuid, setgid and sticky
// are not offered (the daemon refuses them).
import { shownName } from "../../core/files/shown-name";
import { useState } from "react";
import { useT } from "../lib/i18n";
import { Overlay } from "./Overlay";
import { DialogForm } from "./DialogForm";

const WHO = ["owner", "group", "others"] as const;
const BITS = [
  ["read", 4],
  ["write", 2],
  ["execute", 1],
] as const;

export interface ModeDialogProps {
  name: string;
  /** the mode the listing showed */
  mode: number | undefined;
  onConfirm: (mode: string) => Promise<void>;
  onClose: () => void;
}

export function ModeDialog({ name, mode, onConfirm, onClose }: ModeDialogProps) {
  const t = useT();
  const [text, setText] = useState(((mode ?? 0o644) & 0o777).toString(8).padStart(3, "0"));
  const valid = /^[0-7]{3}$/.test(text);
  const value = valid ? parseInt(text, 8) : 0;
  const toggle = (shift: number, bit: number, on: boolean) => setText(((on ? value | (bit << shift) : value & ~(bit << shift)) & 0o777).toString(8).padStart(3, "0"));
  const title = t("files.modeTitle", { name: shownName(name) });
  return (
    <Overlay title={title} label={title} onClose={onClose} className="files-mode-overlay" testId="files-mode-dialog">
      <DialogForm ready={valid} confirm={t("common.save")} onConfirm={() => onConfirm(text)} onCancel={onClose}>
        <table className="files-mode-grid">
          <thead>
            <tr>
              <th />
              {BITS.map(([bit]) => (
                <th key={bit} scope="col">
                  {t(`files.mode.${bit}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {WHO.map((who, i) => (
              <tr key={who}>
                <th scope="row">{t(`files.mode.${who}`)}</th>
                {BITS.map(([bit, flag]) => (
                  <td key={bit}>
                    <input type="checkbox" disabled={!valid} checked={valid && (value & (flag << (6 - 3 * i))) !== 0} aria-label={`${t(`files.mode.${who}`)}: ${t(`files.mode.${bit}`)}`} onChange={(e) => toggle(6 - 3 * i, flag, e.target.checked)} />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
        <label className="field">
          <span className="field-label">{t("files.modeOctal")}</span>
          <input type="text" name="mode" value={text} inputMode="numeric" maxLength={3} autoComplete="off" aria-invalid={valid ? undefined : true} onChange={(e) => setText(e.target.value.trim())} />
          {valid ? null : <span className="field-hint files-field-error">{t("files.modeInvalid")}</span>}
        </label>
      </DialogForm>
    </Overlay>
  );
}

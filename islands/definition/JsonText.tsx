// The JSON mode of the editors: the text as typed, and when it is not valid the place it breaks,
// named above it and selected in it.
import { useEffect, useRef } from "react";
import { useT } from "../lib/i18n";
import { Icon } from "../lib/Icon";
import { alert } from "../lib/icons";
import type { JsonErrorPlace } from "./json-error";

export function JsonText({ value, onChange, error }: { value: string; onChange: (text: string) => void; error: JsonErrorPlace | null }) {
  const t = useT();
  const area = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    const textarea = area.current;
    if (!error || !textarea) return;
    textarea.focus();
    textarea.setSelectionRange(error.offset, Math.min(error.offset + 1, textarea.value.length));
    const lineHeight = parseFloat(textarea.ownerDocument.defaultView?.getComputedStyle(textarea).lineHeight ?? "") || 18;
    textarea.scrollTop = Math.max(0, (error.line - 4) * lineHeight);
  }, [error]);
  return (
    <div className="stack defedit-jsonbox">
      {error ? (
        <div className="alert alert-error" role="alert" data-json-error="">
          <Icon path={alert} size={20} />
          <div>{t("definition.jsonError", { line: error.line, column: error.column })}</div>
        </div>
      ) : null}
      <textarea
        ref={area}
        className="defedit-json"
        aria-label={t("definition.mode.json")}
        aria-invalid={error ? true : undefined}
        spellCheck={false}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </div>
  );
}

// A copy button beside a value the page shows as plain selectable text (the SFTP card): copies the
// value and shows a 'Copied' chip for 6 seconds (spec section 9). Without script it renders
// nothing, so the value is simply selected and copied by hand.
import { useEffect, useRef, useState } from "react";
import { defineIsland } from "./define";
import { useT } from "./lib/i18n";
import { Icon } from "./lib/Icon";
import { copy as copyIcon } from "./files/icons";
import { COPIED_MS, copyText } from "./lib/copy-text";

export interface CopyButtonProps {
  value: string;
  /** what is copied, for the button's label ("Copy username") */
  what: string;
}

// The copying itself lives in ./lib/copy-text, shared with the console tab's vitals without this island.
export { COPIED_MS, copyText };

function CopyButtonView({ value, what }: CopyButtonProps) {
  const t = useT();
  const [ready, setReady] = useState(false);
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    setReady(true);
    return () => clearTimeout(timer.current);
  }, []);
  if (!ready) return null;

  async function copy() {
    if (!(await copyText(value))) return;
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPIED_MS);
  }

  const label = t("sftp.copyLabel", { what });
  return (
    <span className="copy-button">
      <button type="button" className="icon-btn" title={label} aria-label={label} onClick={() => void copy()}>
        <Icon path={copyIcon} size={18} />
      </button>
      {copied ? (
        <span className="copy-chip" role="status">
          {t("common.copied")}
        </span>
      ) : null}
    </span>
  );
}

export default defineIsland<CopyButtonProps>({
  name: "CopyButton",
  component: CopyButtonView,
  messages: ["sftp.copyLabel", "common.copied"],
  hydrate: "idle",
});

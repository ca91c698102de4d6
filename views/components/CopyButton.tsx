// A copy button beside a value the page shows as plain selectable text (the SFTP card, one-time
// secrets, a node's install steps). It is markup the shell brings to life
// (islands/shell/copy-buttons.ts), not an island: hidden until the shell shows it, so without
// script the value is simply selected and copied by hand, and a page whose only script is copy
// buttons loads the shell's few KB and no component runtime.
import { usePage } from "../context";
import { Icon } from "../../islands/lib/Icon";
import { copy as copyIcon } from "../../islands/files/icons";

export function CopyButton({ value, what }: { value: string; /** what is copied, for the button's label ("Copy username") */ what: string }) {
  const { t } = usePage();
  const label = t("sftp.copyLabel", { what });
  return (
    <span className="copy-button">
      <button type="button" className="icon-btn" title={label} aria-label={label} data-copy={value} data-copied={t("common.copied")} hidden>
        <Icon path={copyIcon} size={18} />
      </button>
    </span>
  );
}

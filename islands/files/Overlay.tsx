// A modal overlay for the file manager (edit, image, name, upload, delete confirmation): backdrop,
// focus taken on open and given back on close, Escape closes. While one is open the page's
// hotkeys only reach into it (islands/shell/hotkeys looks for aria-modal).
import { useEffect, useRef, type ReactNode } from "react";
import { useT } from "../lib/i18n";
import { Icon } from "../lib/Icon";
import { close as closeIcon } from "../lib/icons";

export interface OverlayProps {
  title: ReactNode;
  /** the accessible name when the title is not plain text */
  label: string;
  onClose: () => void;
  className?: string;
  /** shown in the head, before the close button */
  head?: ReactNode;
  children: ReactNode;
  testId?: string;
}

export function Overlay({ title, label, onClose, className, head, children, testId }: OverlayProps) {
  const t = useT();
  const dialog = useRef<HTMLDivElement>(null);
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    // Something inside that asked for focus (autoFocus) gets it; else the dialog itself. The
    // browser's own autofocus does not run once the page has a focused element (the button that
    // opened the dialog), so it is given here.
    if (!dialog.current?.contains(document.activeElement)) (dialog.current?.querySelector<HTMLElement>("[autofocus]") ?? dialog.current)?.focus();
    // Escape closes wherever focus is (after a file picker it may be on the page), unless
    // something inside used it first (the editor's search panel closes on Escape).
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape" || e.defaultPrevented) return;
      e.preventDefault();
      closeRef.current();
    };
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("keydown", onKey);
      before?.focus?.();
    };
  }, []);
  return (
    <div className="modal-layer files-layer">
      <div className="overlay-backdrop" onClick={onClose} />
      <div className={`overlay files-overlay${className ? ` ${className}` : ""}`} role="dialog" aria-modal="true" aria-label={label} tabIndex={-1} ref={dialog} data-testid={testId}>
        <div className="overlay-head files-overlay-head">
          <h2>{title}</h2>
          {head}
          <button type="button" className="icon-btn" title={t("common.close")} aria-label={t("common.close")} onClick={onClose}>
            <Icon path={closeIcon} />
          </button>
        </div>
        {children}
      </div>
    </div>
  );
}

// An overlay above the editor's overlay, for editing one list item (a step, a variable). Rendered
// into <body>: the editor's overlay is transformed, which would trap a fixed child inside it.
import { useEffect, useRef, type ReactNode } from "react";
import { createPortal } from "react-dom";
import { useT } from "../lib/i18n";

export interface SubDialogProps {
  title: string;
  /** Apply the edit; the owner closes the dialog (or keeps it open when the edit is refused). */
  onApply: () => void;
  onCancel: () => void;
  children: ReactNode;
}

export function SubDialog({ title, onApply, onCancel, children }: SubDialogProps) {
  const t = useT();
  const dialog = useRef<HTMLDivElement>(null);
  useReturnFocus(dialog);
  return createPortal(
    <div
      className="modal-layer defedit-layer defedit-sub"
      onKeyDown={(e) => {
        if (e.key !== "Escape") return;
        // Only this dialog closes; the editor behind it and the page's <details> stay as they are.
        e.stopPropagation();
        onCancel();
      }}
    >
      <div className="overlay-backdrop" />
      <div className="overlay defedit defedit-sub-overlay" role="dialog" aria-modal="true" aria-label={title} tabIndex={-1} ref={dialog}>
        <h2>{title}</h2>
        <form
          className="stack"
          onSubmit={(e) => {
            e.preventDefault();
            // React bubbles along the component tree, portal or not: the editor must not see this.
            e.stopPropagation();
            onApply();
          }}
        >
          {children}
          <div className="dialog-actions">
            <button type="button" className="btn" onClick={onCancel}>
              {t("common.cancel")}
            </button>
            <button type="submit" className="btn btn-primary" data-apply="">
              {t("definition.apply")}
            </button>
          </div>
        </form>
      </div>
    </div>,
    document.body,
  );
}

/** Focuses a dialog when it opens and gives focus back to what had it when it closes. */
export function useReturnFocus(dialog: React.RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    dialog.current?.focus();
    return () => before?.focus?.();
  }, [dialog]);
}

// An overlay above the editor's overlay, for editing one list item (a step, a variable). Rendered
// into <body>: the editor's overlay is transformed, which would trap a fixed child inside it.
// Both are EditorLayers.
import { useEffect, useRef, type ReactNode } from "react";
import { createPortal } from "react-dom";
import { useT } from "../lib/i18n";
import { DialogActions } from "../lib/Dialog";

export interface SubDialogProps {
  title: string;
  /** Apply the edit; the owner closes the dialog (or keeps it open when the edit is refused). */
  onApply: () => void;
  onCancel: () => void;
  children: ReactNode;
}

export function SubDialog({ title, onApply, onCancel, children }: SubDialogProps) {
  const t = useT();
  return createPortal(
    <EditorLayer layerClassName="defedit-sub" overlayClassName="defedit-sub-overlay" label={title} onClose={onCancel}>
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
        <DialogActions cancel={t("common.cancel")} confirm={t("definition.apply")} onCancel={onCancel} confirmData={{ "data-apply": "" }} />
      </form>
    </EditorLayer>,
    document.body,
  );
}

export interface EditorLayerProps {
  /** beside "modal-layer defedit-layer" */
  layerClassName?: string;
  /** beside "overlay defedit" */
  overlayClassName: string;
  /** the dialog's accessible name */
  label: string;
  onClose: () => void;
  children: ReactNode;
}

/**
 * A modal layer of the definition editor: backdrop and dialog box, focus taken on open and given
 * back on close. Escape closes this layer only: the layer under it (the editor behind a
 * sub-dialog, the page's <details>) stays as it is.
 */
export function EditorLayer({ layerClassName, overlayClassName, label, onClose, children }: EditorLayerProps) {
  const dialog = useRef<HTMLDivElement>(null);
  useReturnFocus(dialog);
  return (
    <div
      className={layerClassName ? `modal-layer defedit-layer ${layerClassName}` : "modal-layer defedit-layer"}
      onKeyDown={(e) => {
        if (e.key !== "Escape") return;
        e.stopPropagation();
        onClose();
      }}
    >
      <div className="overlay-backdrop" />
      <div className={`overlay defedit ${overlayClassName}`} role="dialog" aria-modal="true" aria-label={label} tabIndex={-1} ref={dialog}>
        {children}
      </div>
    </div>
  );
}

/** Focuses a dialog when it opens and gives focus back to what had it when it closes. */
function useReturnFocus(dialog: React.RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    dialog.current?.focus();
    return () => before?.focus?.();
  }, [dialog]);
}

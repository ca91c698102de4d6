// The pieces every dialog is made of, for islands and the server's views alike (shared markup:
// views may import islands/lib, never the other way; docs/architecture.md). A DetailsDialog opens
// from its summary button with no script at all: a <details> overlay that the shell runtime closes
// on Escape (data-close-on-escape) and from a Cancel marked data-close-details. DialogActions is
// the end of every dialog form: Cancel, then the submit that confirms.
import type { HTMLAttributes, ReactNode, Ref, SyntheticEvent } from "react";

/** What a data-* attribute takes; React drops one whose value is undefined. */
export type DataAttributes = { [name: `data-${string}`]: string | undefined };

export interface DetailsDialogProps {
  /** beside "modal" on the <details> */
  className?: string;
  /** beside "overlay" on the dialog box */
  overlayClassName?: string;
  /** what the button that opens it shows */
  summary: ReactNode;
  summaryProps?: HTMLAttributes<HTMLElement> & DataAttributes;
  /** the heading, and the dialog's accessible name */
  title: string;
  children: ReactNode;
  /** rendered opened, e.g. a form shown again with the error of its last submit */
  open?: boolean;
  testId?: string;
  onToggle?: (event: SyntheticEvent<HTMLDetailsElement>) => void;
  detailsRef?: Ref<HTMLDetailsElement>;
}

export function DetailsDialog({ className, overlayClassName, summary, summaryProps, title, children, open, testId, onToggle, detailsRef }: DetailsDialogProps) {
  return (
    // Opened before an island's code arrived, the <details> carries `open`; that is expected, not a mismatch.
    <details className={className ? `modal ${className}` : "modal"} data-close-on-escape="" data-testid={testId} open={open} onToggle={onToggle} ref={detailsRef} suppressHydrationWarning>
      <summary {...summaryProps}>{summary}</summary>
      <div className="overlay-backdrop" />
      <div className={overlayClassName ? `overlay ${overlayClassName}` : "overlay"} role="dialog" aria-label={title}>
        <h2>{title}</h2>
        {children}
      </div>
    </details>
  );
}

export interface DialogActionsProps {
  cancel: string;
  confirm: string;
  /** the confirming button's look: "danger" for what cannot be undone */
  kind?: "primary" | "danger";
  /** Cancel's action in an island; without it Cancel closes the <details> it sits in (no script needed). */
  onCancel?: () => void;
  disabled?: boolean;
  /** marks on the confirming button (data-confirm-kill, …) */
  confirmData?: DataAttributes;
}

export function DialogActions({ cancel, confirm, kind = "primary", onCancel, disabled, confirmData }: DialogActionsProps) {
  return (
    <div className="dialog-actions">
      <button type="button" className="btn" {...(onCancel ? { onClick: onCancel } : { "data-close-details": "" })}>
        {cancel}
      </button>
      <button type="submit" className={`btn btn-${kind}`} disabled={disabled} {...confirmData}>
        {confirm}
      </button>
    </div>
  );
}

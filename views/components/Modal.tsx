// Overlays without script: <ModalDetails> opens from its summary button (a <details>), <OpenModal>
// is rendered already open by the server (a step that must be seen, like a one-time secret).
import type { ReactNode } from "react";

/** `open` renders it opened, e.g. a form shown again with the error of its last submit. */
export function ModalDetails({ summary, summaryClass = "btn", title, children, testId, open }: { summary: ReactNode; summaryClass?: string; title: string; children: ReactNode; testId?: string; open?: boolean }) {
  return (
    <details className="modal" data-close-on-escape="" data-testid={testId} open={open}>
      <summary className={summaryClass}>{summary}</summary>
      <div className="overlay-backdrop" />
      <div className="overlay" role="dialog" aria-label={title}>
        <h2>{title}</h2>
        {children}
      </div>
    </details>
  );
}

export function OpenModal({ title, children, id }: { title: string; children: ReactNode; id?: string }) {
  return (
    <div className="modal-layer" id={id}>
      <div className="overlay-backdrop" />
      <div className="overlay" role="dialog" aria-modal="true" aria-label={title}>
        <h2>{title}</h2>
        {children}
      </div>
    </div>
  );
}

/** Cancel (closes the overlay) and the submit, the end of every dialog form; dangerous by default. */
export function ConfirmActions({ cancel, confirm, kind = "danger" }: { cancel: string; confirm: string; kind?: "danger" | "primary" }) {
  return (
    <div className="dialog-actions">
      <button type="button" className="btn" data-close-details="">{cancel}</button>
      <button type="submit" className={`btn btn-${kind}`}>{confirm}</button>
    </div>
  );
}

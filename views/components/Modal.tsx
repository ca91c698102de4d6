// Overlays without script: <ModalDetails> opens from its summary button (a <details>), <OpenModal>
// is rendered already open by the server (a step that must be seen, like a one-time secret). The
// markup is the islands' own (islands/lib/Dialog), so a page's dialogs and an island's look and
// close alike.
import type { ReactNode } from "react";
import { DetailsDialog, DialogActions } from "../../islands/lib/Dialog";

/** `open` renders it opened, e.g. a form shown again with the error of its last submit. */
export function ModalDetails({ summary, summaryClass = "btn", title, children, testId, open }: { summary: ReactNode; summaryClass?: string; title: string; children: ReactNode; testId?: string; open?: boolean }) {
  return (
    <DetailsDialog summary={summary} summaryProps={{ className: summaryClass }} title={title} testId={testId} open={open}>
      {children}
    </DetailsDialog>
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

/** Cancel (closes the overlay) and the submit, the end of every dialog form; on a page, dangerous by default. */
export function ConfirmActions({ cancel, confirm, kind = "danger" }: { cancel: string; confirm: string; kind?: "danger" | "primary" }) {
  return <DialogActions cancel={cancel} confirm={confirm} kind={kind} />;
}

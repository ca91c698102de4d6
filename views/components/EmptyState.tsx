// A list with nothing in it yet: its icon, what that means, and the
// first thing to do about it (a link or a note of who can), so a first visit is never a blank card.
import type { ReactNode } from "react";
import { Icon } from "../../islands/lib/Icon";

export function EmptyState({ icon, message, testId, children }: { icon: string; message: ReactNode; testId?: string; children?: ReactNode }) {
  return (
    <section className="card empty-state" data-testid={testId}>
      <Icon path={icon} size={40} />
      <p>{message}</p>
      {children ? <div className="empty-state-actions">{children}</div> : null}
    </section>
  );
}

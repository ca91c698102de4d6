// An alert inside the island, drawn as the server's Alert (views/components/Alert) draws one.
import type { ReactNode } from "react";
import { Icon } from "../lib/Icon";
import { alert } from "../lib/icons";

export function Notice({ kind, icon = alert, testId, children }: { kind: "info" | "warning" | "error"; icon?: string; testId?: string; children: ReactNode }) {
  return (
    <div className={`alert alert-${kind}`} role={kind === "error" ? "alert" : undefined} data-testid={testId}>
      <Icon path={icon} size={20} />
      <div>{children}</div>
    </div>
  );
}

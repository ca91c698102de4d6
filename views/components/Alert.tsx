import type { ReactNode } from "react";
import { Icon } from "../../islands/lib/Icon";
import { alert } from "../../islands/lib/icons";

export function Alert({ kind = "info", children }: { kind?: "info" | "error" | "warning"; children: ReactNode }) {
  return (
    <div className={`alert alert-${kind}`} role={kind === "error" ? "alert" : undefined}>
      <Icon path={alert} size={20} />
      <div>{children}</div>
    </div>
  );
}

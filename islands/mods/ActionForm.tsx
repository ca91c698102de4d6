// A control of the Mods tab that works without script: a plain form posting to the tab's page
// routes (server/routes/server/mods.ts), which plan, apply or undo and come back to the tab. Once
// the island is live, `onAct` does the same through the API instead and the form is not sent.
import type { ReactNode } from "react";

export interface ActionFormProps {
  action: string;
  /** hidden fields sent with it */
  fields?: Record<string, string | undefined>;
  hydrated: boolean;
  onAct(): void;
  children: ReactNode;
  className?: string;
}

export function ActionForm({ action, fields = {}, hydrated, onAct, children, className }: ActionFormProps) {
  return (
    <form
      method="post"
      action={action}
      className={className ? `mods-action ${className}` : "mods-action"}
      onSubmit={(e) => {
        if (!hydrated) return;
        e.preventDefault();
        onAct();
      }}
    >
      {Object.entries(fields).map(([name, value]) => (value === undefined ? null : <input key={name} type="hidden" name={name} value={value} />))}
      {children}
    </form>
  );
}

/** The tab's page routes for one server. */
export const modsFormBase = (serverId: string) => `/server/${encodeURIComponent(serverId)}/mods`;

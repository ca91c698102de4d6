// The panel scopes as a grid of checkboxes (an account's permissions, a role's scopes). A scope the
// viewer may not change is shown disabled; one `kept` is sent as it is with a hidden field (a
// disabled box sends nothing), so saving the form never drops it.
import type { ReactNode } from "react";
import { ALL_SCOPES, SCOPES } from "../../core/scopes";
import { usePage } from "../context";

export interface ScopeGridProps {
  checked: readonly string[];
  /** the form cannot change this scope */
  locked?: (scope: string) => boolean;
  /** shown after the scope's name (why it is locked) */
  note?: (scope: string) => ReactNode;
  disabled?: boolean;
}

export function ScopeGrid({ checked, locked = () => false, note = () => null, disabled = false }: ScopeGridProps) {
  const { t, user } = usePage();
  const actorScopes = user?.scopes ?? [];
  const actorIsAdmin = actorScopes.includes(SCOPES.admin);
  return (
    <div className="scope-grid">
      {ALL_SCOPES.map((scope) => {
        const held = checked.includes(scope);
        const fixed = locked(scope);
        return (
          <label key={scope} className="check-row">
            {fixed && held ? <input type="hidden" name="scopes" value={scope} /> : null}
            <input type="checkbox" name="scopes" value={scope} defaultChecked={held} disabled={disabled || fixed || (!actorIsAdmin && !actorScopes.includes(scope))} />
            <span>{t(`scope.${scope}`)}</span>
            {note(scope)}
          </label>
        );
      })}
    </div>
  );
}

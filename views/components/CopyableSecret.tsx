// A one-time secret shown in the page (OAuth2 client secret, invitation link) with a copy button
// beside it. The value stays plain selectable text, so without script it is copied by
// hand; the button appears once the shell runs (./CopyButton).
import { CopyButton } from "./CopyButton";

export function CopyableSecret({ value, what, testId }: { value: string; /** what is copied, for the button's label */ what: string; testId?: string }) {
  return (
    <span className="copyable-secret">
      <code data-testid={testId}>{value}</code>
      <CopyButton value={value} what={what} />
    </span>
  );
}

// The toast region. Server toasts (a flash after a redirect) fade out by CSS alone, so they need
// no script; the shell runtime adds browser toasts to the same region.
import { usePage } from "../context";

export const TOAST_REGION_ID = "toasts";

export function Toasts() {
  const { flash, t } = usePage();
  return (
    <div id={TOAST_REGION_ID} className="toasts" role="status" aria-live="polite">
      {flash ? (
        <div className={flash.error ? "toast toast-error" : "toast"} data-server-toast="">
          {t(flash.key)}
        </div>
      ) : null}
    </div>
  );
}

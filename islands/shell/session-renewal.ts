// While logged in, the session is renewed every 10 minutes; when the
// server says it has ended, the user is sent to log in again with the timed-out message.
export const SESSION_RENEWAL_MS = 600_000;
export const SESSION_TIMED_OUT_URL = "/auth/login?reason=session_timed_out";

/** Returns a function that stops the renewals. */
export function renewSessions(root: Document = document, every = SESSION_RENEWAL_MS): () => void {
  if (root.body.dataset.session === undefined) return () => {};
  const timer = setInterval(async () => {
    const response = await fetch("/auth/reauth", { method: "POST", credentials: "same-origin" }).catch(() => null);
    if (response?.status === 401) location.assign(SESSION_TIMED_OUT_URL);
  }, every);
  return () => clearInterval(timer);
}

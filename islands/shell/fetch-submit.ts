// Submit buttons marked data-fetch-submit send their form to their formaction in the background
// and say the answer in a toast, so the page, and every unsaved edit on it (a typed password too),
// stays as it is: the settings form's "Send a test email". The answer is JSON when asked for
// ({ msg } or { error: { msg } }). Without script, or if the request cannot be made at all, the
// button posts the form as usual and the page answers in full.
import { showToast } from "./toasts";

export function installFetchSubmit(root: Document = document): void {
  // Said on the page, as an island says it has hydrated: a click before it posts the plain form.
  root.documentElement.dataset.fetchSubmit = "ready";
  root.addEventListener("click", (event) => {
    const button = (event.target as Element | null)?.closest?.<HTMLButtonElement>("button[data-fetch-submit]");
    const form = button?.form;
    if (!button || !form || event.defaultPrevented || button.dataset.fetching !== undefined) return;
    // The browser's own checks first, as a real submit would make them.
    if (!form.reportValidity()) return;
    event.preventDefault();
    button.dataset.fetching = "";
    button.setAttribute("aria-busy", "true");
    const body = new URLSearchParams();
    for (const [name, value] of new FormData(form)) if (typeof value === "string") body.append(name, value);
    fetch(button.formAction, { method: "POST", body, headers: { accept: "application/json" }, credentials: "same-origin" })
      .then(async (response) => {
        const answer = (await response.json()) as { msg?: string; error?: { msg?: string } };
        const text = response.ok ? answer.msg : answer.error?.msg;
        if (typeof text !== "string") throw new Error("no answer");
        showToast(text, { error: !response.ok });
      })
      .catch(() => {
        // No answer to show: the plain post (a submit, not a click, so not caught here again).
        form.requestSubmit(button);
      })
      .finally(() => {
        delete button.dataset.fetching;
        button.removeAttribute("aria-busy");
      });
  });
}

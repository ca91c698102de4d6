// Registering a passkey from the account page: the browser creates the credential, the panel
// verifies and stores it, and the page reloads to list it.
import { useState } from "react";
import { defineIsland } from "./define";
import { useT } from "./lib/i18n";
import { api, ApiError } from "./lib/api";
import { reportError } from "./shell/report-error";
import { showToast } from "./shell/toasts";

function AddPasskeyView() {
  const t = useT();
  const [busy, setBusy] = useState(false);

  async function add(event: React.FormEvent) {
    event.preventDefault();
    // Read from the form, not from state: text typed before the island hydrated counts too.
    const name = String(new FormData(event.currentTarget as HTMLFormElement).get("name") ?? "");
    if (!("PublicKeyCredential" in window)) {
      showToast(t("passkey.unsupported"), { error: true });
      return;
    }
    setBusy(true);
    try {
      const { startRegistration } = await import("@simplewebauthn/browser");
      const optionsJSON = await api<Parameters<typeof startRegistration>[0]["optionsJSON"]>("POST", "/api/self/passkeys/options");
      const response = await startRegistration({ optionsJSON });
      await api("POST", "/api/self/passkeys", { name, response });
      location.reload();
    } catch (error) {
      if (error instanceof Error && error.name === "NotAllowedError") showToast(t("passkey.cancelled"));
      else if (error instanceof ApiError) await reportError(error);
      else showToast(t("passkey.failed"), { error: true });
      setBusy(false);
    }
  }

  return (
    <form className="inline-form" onSubmit={(e) => void add(e)}>
      <input type="text" name="name" placeholder={t("passkey.namePlaceholder")} aria-label={t("passkey.name")} maxLength={60} />
      <button type="submit" className="btn btn-primary" disabled={busy} data-add-passkey="">
        {t("passkey.add")}
      </button>
    </form>
  );
}

export default defineIsland({ name: "AddPasskey", component: AddPasskeyView, messages: ["passkey."], hydrate: "interaction" });

// Registering a passkey from the account page: the browser creates the credential, the panel
// verifies and stores it, and the page reloads to list it.
import { useState } from "react";
import { defineIsland } from "./define";
import { useT } from "./lib/i18n";
import { api } from "./lib/api";
import { passkeysSupported, reportPasskeyError } from "./lib/passkey-ceremony";

function AddPasskeyView() {
  const t = useT();
  const [busy, setBusy] = useState(false);

  async function add(event: React.FormEvent) {
    event.preventDefault();
    // Read from the form, not from state: text typed before the island hydrated counts too.
    const name = String(new FormData(event.currentTarget as HTMLFormElement).get("name") ?? "");
    if (!passkeysSupported(t)) return;
    setBusy(true);
    try {
      const { startRegistration } = await import("@simplewebauthn/browser");
      const optionsJSON = await api<Parameters<typeof startRegistration>[0]["optionsJSON"]>("POST", "/api/self/passkeys/options");
      const response = await startRegistration({ optionsJSON });
      await api("POST", "/api/self/passkeys", { name, response });
      location.reload();
    } catch (error) {
      await reportPasskeyError(error, t);
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

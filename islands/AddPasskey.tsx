// Registering a passkey from the account page: the holder gives the account's password again, the
// browser creates the credential, the panel verifies and stores it, and the page reloads to list it.
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
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const name = String(form.get("name") ?? "");
    const password = String(form.get("password") ?? "");
    if (!passkeysSupported(t)) return;
    setBusy(true);
    try {
      const { startRegistration } = await import("@simplewebauthn/browser");
      const optionsJSON = await api<Parameters<typeof startRegistration>[0]["optionsJSON"]>("POST", "/api/self/passkeys/options", { password });
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
      {/* A session alone adds no passkey: the account's password is asked again. */}
      <input type="password" name="password" required autoComplete="current-password" placeholder={t("account.currentPassword")} aria-label={t("account.currentPassword")} />
      <button type="submit" className="btn btn-primary" disabled={busy} data-add-passkey="">
        {t("passkey.add")}
      </button>
    </form>
  );
}

export default defineIsland({ name: "AddPasskey", component: AddPasskeyView, messages: ["passkey.", "account.currentPassword"], hydrate: "interaction" });

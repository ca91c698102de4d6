// "Sign in with a passkey" on the login page: asks the browser for a discoverable credential and
// sends the signed challenge back. Only rendered where the browser offers WebAuthn.
import { useState } from "react";
import { defineIsland } from "./define";
import { useT } from "./lib/i18n";
import { api } from "./lib/api";
import { passkeysSupported, reportPasskeyError } from "./lib/passkey-ceremony";

function PasskeyLoginView() {
  const t = useT();
  const [busy, setBusy] = useState(false);

  async function signIn() {
    if (!passkeysSupported(t)) return;
    setBusy(true);
    try {
      const { startAuthentication } = await import("@simplewebauthn/browser");
      const optionsJSON = await api<Parameters<typeof startAuthentication>[0]["optionsJSON"]>("POST", "/auth/passkey/options");
      const response = await startAuthentication({ optionsJSON });
      const result = await api<{ redirect: string }>("POST", "/auth/passkey/login", { response });
      location.assign(result.redirect);
    } catch (error) {
      await reportPasskeyError(error, t);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="passkey-login">
      <div className="divider"><span>{t("passkey.or")}</span></div>
      <button type="button" className="btn btn-block" onClick={() => void signIn()} disabled={busy} data-passkey-login="">
        {t("passkey.signIn")}
      </button>
    </div>
  );
}

export default defineIsland({ name: "PasskeyLogin", component: PasskeyLoginView, messages: ["passkey."], hydrate: "interaction" });

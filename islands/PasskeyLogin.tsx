// "Sign in with a passkey" on the login page: asks the browser for a discoverable credential and
// sends the signed challenge back. Only rendered where the browser offers WebAuthn.
import { useState } from "react";
import { defineIsland } from "./define";
import { useT } from "./lib/i18n";
import { api, ApiError } from "./lib/api";
import { reportError } from "./shell/report-error";
import { showToast } from "./shell/toasts";

function PasskeyLoginView() {
  const t = useT();
  const [busy, setBusy] = useState(false);

  async function signIn() {
    if (!("PublicKeyCredential" in window)) {
      showToast(t("passkey.unsupported"), { error: true });
      return;
    }
    setBusy(true);
    try {
      const { startAuthentication } = await import("@simplewebauthn/browser");
      const optionsJSON = await api<Parameters<typeof startAuthentication>[0]["optionsJSON"]>("POST", "/auth/passkey/options");
      const response = await startAuthentication({ optionsJSON });
      const result = await api<{ redirect: string }>("POST", "/auth/passkey/login", { response });
      location.assign(result.redirect);
    } catch (error) {
      // The user closing the browser's passkey prompt is not an error worth a toast.
      if (error instanceof Error && error.name === "NotAllowedError") showToast(t("passkey.cancelled"));
      else if (error instanceof ApiError) await reportError(error);
      else showToast(t("passkey.failed"), { error: true });
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

// What both passkey islands share: whether the browser can do it, and how a failure is told.
import type { Translate } from "../../core/i18n/translate";
import { ApiError } from "./api";
import { reportError } from "../shell/report-error";
import { showToast } from "../shell/toasts";

export function passkeysSupported(t: Translate): boolean {
  if ("PublicKeyCredential" in window) return true;
  showToast(t("passkey.unsupported"), { error: true });
  return false;
}

export async function reportPasskeyError(error: unknown, t: Translate): Promise<void> {
  // The user closing the browser's passkey prompt is not an error worth a red toast.
  if (error instanceof Error && error.name === "NotAllowedError") showToast(t("passkey.cancelled"));
  else if (error instanceof ApiError) await reportError(error);
  else showToast(t("passkey.failed"), { error: true });
}

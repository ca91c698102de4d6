// Copying a value the page shows: the clipboard API where the page may use it (https or
// localhost), else a selection and execCommand (a panel reached over plain http). Used by the
// shell's copy buttons (shell/copy-buttons.ts) and the console tab's vitals.

/** How long the 'Copied' chip stays. */
export const COPIED_MS = 6000;

export async function copyText(value: string): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(value);
      return true;
    }
  } catch {
    // refused (no permission, no focus): the old way below may still work
  }
  const area = document.createElement("textarea");
  area.value = value;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.append(area);
  area.select();
  try {
    return document.execCommand("copy");
  } catch {
    return false;
  } finally {
    area.remove();
  }
}

// The shell's side of views/components/CopyButton: shows the copy buttons (hidden without script)
// and copies a button's value when pressed, with a 'Copied' chip beside it for 6 seconds.
import { COPIED_MS, copyText } from "../lib/copy-text";

export function installCopyButtons(root: Document = document): void {
  for (const button of root.querySelectorAll<HTMLButtonElement>("button[data-copy]")) button.hidden = false;
  const timers = new WeakMap<HTMLElement, ReturnType<typeof setTimeout>>();
  root.addEventListener("click", (event) => {
    const button = (event.target as Element | null)?.closest?.<HTMLButtonElement>("button[data-copy]");
    if (!button) return;
    void copyText(button.dataset.copy ?? "").then((done) => {
      const holder = button.parentElement;
      if (!done || !holder) return;
      let chip = holder.querySelector<HTMLElement>(".copy-chip");
      if (!chip) {
        chip = root.createElement("span");
        chip.className = "copy-chip";
        chip.setAttribute("role", "status");
        chip.textContent = button.dataset.copied ?? "";
        holder.append(chip);
      }
      clearTimeout(timers.get(holder));
      timers.set(holder, setTimeout(() => chip!.remove(), COPIED_MS));
    });
  });
}

// Small enhancements to server-rendered markup that work without it: password show/hide, closing
// <details> overlays with Escape or their close button, the caret in an opened overlay's first
// field, free-text fields taking the direction of their text in right-to-left pages, remembering
// the drawer's collapsed state.
export function enhance(root: Document = document): void {
  root.addEventListener("click", (event) => {
    const target = event.target as HTMLElement;
    const toggle = target.closest<HTMLButtonElement>("[data-password-toggle]");
    if (toggle) {
      const input = toggle.parentElement?.querySelector("input");
      if (!input) return;
      const show = input.type === "password";
      input.type = show ? "text" : "password";
      toggle.setAttribute("aria-pressed", String(show));
      return;
    }
    const closer = target.closest("[data-close-details]");
    if (closer) closer.closest("details")?.removeAttribute("open");
  });
  root.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    for (const d of root.querySelectorAll("details[open]")) d.removeAttribute("open");
  });
  // A dialog opened from its summary puts the caret in its first field, as the islands' own do:
  // one types a name at once. Dialogs with no field to type in (Kill, Install) keep focus where it was.
  root.addEventListener(
    "toggle",
    (event) => {
      const details = event.target as HTMLElement;
      if (!(details instanceof HTMLDetailsElement) || !details.open || !details.classList.contains("modal")) return;
      const field = details.querySelector<HTMLElement>("[autofocus], input:not([type=hidden], [type=checkbox], [type=radio], [type=file]):not([disabled]), textarea:not([disabled])");
      field?.focus();
    },
    true,
  );
  // Right-to-left pages only: the rest never load it.
  if (root.documentElement.dir === "rtl") void import("./auto-direction").then((m) => m.autoDirection(root));
  root.getElementById("drawer-collapse")?.addEventListener("change", (event) => {
    const collapsed = (event.target as HTMLInputElement).checked;
    root.cookie = `kiln_drawer=${collapsed ? "mini" : "full"}; path=/; max-age=31536000; samesite=strict`;
  });
}

// Permission preset buttons (views/pages/server/UsersTab.tsx): with script, a preset
// sets its form's switches and sends nothing, so the grantor can adjust before Update or Add.
// Switches the grantor may not change are disabled and left as they are. Without script the
// button submits the form and the server applies the preset.
export function installPresets(root: Document = document): void {
  root.addEventListener("click", (event) => {
    const button = (event.target as HTMLElement).closest<HTMLButtonElement>("button[data-preset]");
    if (!button?.form) return;
    event.preventDefault();
    const on = new Set(button.dataset.preset!.split(" "));
    for (const box of button.form.querySelectorAll<HTMLInputElement>('[data-flag-group] input[type="checkbox"]')) {
      if (!box.disabled) box.checked = on.has(box.name);
    }
  });
}

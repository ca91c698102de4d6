// Toasts (2500 ms; errors 6000 ms), in the region the server renders on every page.
export const TOAST_MS = 2500;
export const ERROR_TOAST_MS = 6000;

export interface ToastAction {
  label: string;
  run: () => void;
}

export function showToast(text: string, options: { error?: boolean; action?: ToastAction } = {}): HTMLElement {
  const region = document.getElementById("toasts") ?? document.body;
  const toast = document.createElement("div");
  toast.className = options.error ? "toast toast-error toast-live" : "toast toast-live";
  toast.setAttribute("role", options.error ? "alert" : "status");
  const label = document.createElement("span");
  label.textContent = text;
  toast.append(label);
  if (options.action) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "btn-text";
    button.textContent = options.action.label;
    button.addEventListener("click", options.action.run);
    toast.append(button);
  }
  region.append(toast);
  setTimeout(() => toast.remove(), options.error ? ERROR_TOAST_MS : TOAST_MS);
  return toast;
}

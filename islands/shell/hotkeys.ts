// Two-key hotkeys (spec section 2: "g s", "t c", "r r" …). Any element carrying data-hotkey is
// followed (links) or clicked (buttons) when its sequence is typed, so a hotkey only exists where
// the server rendered the control the user may use.
const SEQUENCE_MS = 1200;

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el) return false;
  return el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName) || el.closest(".cm-editor") !== null;
}

export function installHotkeys(root: Document = document): void {
  let first: string | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  root.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || event.key.length !== 1 || isTyping(event.target)) return;
    const key = event.key.toLowerCase();
    if (first === null) {
      first = key;
      clearTimeout(timer);
      timer = setTimeout(() => (first = null), SEQUENCE_MS);
      // A single-key hotkey (for example "r" to refresh files) fires unless a sequence starts with it.
      const single = root.querySelector<HTMLElement>(`[data-hotkey="${CSS.escape(key)}"]`);
      const startsSequence = root.querySelector(`[data-hotkey^="${CSS.escape(key)} "]`);
      if (single && !startsSequence) {
        first = null;
        event.preventDefault();
        single.click();
      }
      return;
    }
    const sequence = `${first} ${key}`;
    first = null;
    clearTimeout(timer);
    const target = root.querySelector<HTMLElement>(`[data-hotkey="${CSS.escape(sequence)}"]`);
    if (!target) return;
    event.preventDefault();
    target.click();
  });
}

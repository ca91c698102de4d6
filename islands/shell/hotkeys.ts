// Hotkeys ("g s", "t c", "r r" …, and single keys like "r" and "u" in the file
// manager). Any element carrying data-hotkey is followed (links) or clicked (buttons) when its keys
// are typed, so a hotkey only exists where the server rendered the control the user may use.
// A key that is a hotkey of its own and also starts a sequence ("r" refreshes files; "r s" stops
// the server) waits SINGLE_WAIT_MS for a second key: if none comes, or the two keys are no
// sequence, the single key's hotkey fires. While a modal dialog is open only its hotkeys count.
const SEQUENCE_MS = 1200;
export const SINGLE_WAIT_MS = 700;

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el) return false;
  return el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName) || el.closest(".cm-editor") !== null;
}

export function installHotkeys(root: Document = document): void {
  /** The first key of a sequence being typed. */
  let first: string | null = null;
  /** Whether `first` is also a hotkey on its own, to fire if no sequence follows. */
  let firstIsSingle = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const scope = (): ParentNode => root.querySelector('[aria-modal="true"]') ?? root;
  const find = (keys: string) => scope().querySelector<HTMLElement>(`[data-hotkey="${CSS.escape(keys)}"]`);
  const startsSequence = (key: string) => scope().querySelector(`[data-hotkey^="${CSS.escape(key)} "]`) !== null;

  function reset(): { key: string | null; single: boolean } {
    const was = { key: first, single: firstIsSingle };
    first = null;
    firstIsSingle = false;
    clearTimeout(timer);
    return was;
  }

  /** The element is looked up when it fires: the page may have changed while we waited. */
  function fireSingle(key: string): void {
    find(key)?.click();
  }

  function start(key: string, event: KeyboardEvent): void {
    const single = find(key) !== null;
    if (!startsSequence(key)) {
      if (!single) return;
      event.preventDefault();
      fireSingle(key);
      return;
    }
    first = key;
    firstIsSingle = single;
    timer = setTimeout(() => {
      const was = reset();
      if (was.key !== null && was.single) fireSingle(was.key);
    }, single ? SINGLE_WAIT_MS : SEQUENCE_MS);
  }

  root.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || event.key.length !== 1 || isTyping(event.target)) return;
    const key = event.key.toLowerCase();
    if (first === null) return start(key, event);
    const was = reset();
    const target = find(`${was.key} ${key}`);
    if (target) {
      event.preventDefault();
      target.click();
      return;
    }
    // No such sequence: the first key stood on its own, and this one starts afresh.
    if (was.single && was.key !== null) fireSingle(was.key);
    start(key, event);
  });
}

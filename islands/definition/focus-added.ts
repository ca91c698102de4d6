// Puts the caret in the row an Add button just made, so "Add entry" can be followed by typing.
// The rows carry data-entry; in the last one, once the list has rendered it, the field marked
// data-entry-focus is focused, else its first input, select or textarea. A layout effect, so the
// caret is there as soon as the row is (a passive effect may wait for the next frame in the
// browser's runtime, and keys typed meanwhile would go elsewhere).
import { useLayoutEffect, useRef } from "react";

export function useFocusAdded<T extends HTMLElement>(count: number) {
  const list = useRef<T>(null);
  const pending = useRef(false);
  useLayoutEffect(() => {
    if (!pending.current) return;
    pending.current = false;
    const rows = list.current?.querySelectorAll("[data-entry]");
    const row = rows?.[rows.length - 1];
    (row?.querySelector<HTMLElement>("[data-entry-focus]") ?? row?.querySelector<HTMLElement>("input, select, textarea"))?.focus();
  }, [count]);
  return { list, added: () => void (pending.current = true) };
}

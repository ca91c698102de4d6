// Puts the caret in the row an Add button just made, so "Add entry" can be followed by typing.
// The rows carry data-entry; in the last one, once the list has rendered it, the field marked
// data-entry-focus is focused, else its first input, select or textarea.
import { useEffect, useRef } from "react";

export function useFocusAdded<T extends HTMLElement>(count: number) {
  const list = useRef<T>(null);
  const pending = useRef(false);
  useEffect(() => {
    if (!pending.current) return;
    pending.current = false;
    const rows = list.current?.querySelectorAll("[data-entry]");
    const row = rows?.[rows.length - 1];
    (row?.querySelector<HTMLElement>("[data-entry-focus]") ?? row?.querySelector<HTMLElement>("input, select, textarea"))?.focus();
  }, [count]);
  return { list, added: () => void (pending.current = true) };
}

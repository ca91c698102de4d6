// Asks before the page is left while an editor holds unsaved changes: the browser's own prompt
// for reloads, closed tabs and typed addresses (beforeunload), and our worded confirmation for
// what happens inside the panel (a link, a hotkey that follows one, a form elsewhere on the page).
import { useEffect, useRef } from "react";

export interface LeaveGuard {
  /** stop asking, synchronously: for a navigation the editor starts itself after saving */
  release: () => void;
}

export function useLeaveGuard(dirty: boolean, message: string): LeaveGuard {
  const active = useRef(dirty);
  active.current = dirty;

  useEffect(() => {
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!active.current) return;
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = "";
    };
    // Once the user said "leave", the browser must not ask a second time on the way out.
    const leave = (event: Event) => {
      if (confirm(message)) active.current = false;
      else event.preventDefault();
    };
    const onClick = (event: MouseEvent) => {
      if (!active.current || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = (event.target as Element | null)?.closest?.<HTMLAnchorElement>("a[href]");
      if (!link || (link.target && link.target !== "_self") || link.hasAttribute("download")) return;
      const to = new URL(link.href, location.href);
      // A jump within this page (#section) leaves nothing behind.
      if (to.origin === location.origin && to.pathname === location.pathname && to.search === location.search && to.hash !== "") return;
      leave(event);
    };
    const onSubmit = (event: SubmitEvent) => {
      if (!active.current || event.defaultPrevented) return;
      const form = event.target as HTMLFormElement;
      // A dialog form (method=dialog) closes itself; it does not leave the page.
      if (form.method === "dialog") return;
      leave(event);
    };
    addEventListener("beforeunload", onBeforeUnload);
    // Bubbling, on the document: after the page's own handlers (which may handle the click
    // themselves and prevent the default), before the browser follows the link or posts the form.
    document.addEventListener("click", onClick);
    document.addEventListener("submit", onSubmit);
    return () => {
      removeEventListener("beforeunload", onBeforeUnload);
      document.removeEventListener("click", onClick);
      document.removeEventListener("submit", onSubmit);
    };
  }, [message]);

  return { release: () => (active.current = false) };
}

// Watching work the server does in the background (a backup, a move): the island asks `url` every
// `everyMs` and hands each answer to `take`, which says whether the work still runs; when it has
// ended the page is reloaded, so it shows the outcome as the server renders it. An answer that
// does not come (a blip on the link) is skipped; the next one counts.
import { useEffect } from "react";

export function useProgressPoll<T>(url: string, everyMs: number, take: (answer: T) => boolean): void {
  useEffect(() => {
    let stopped = false;
    const timer = setInterval(async () => {
      const response = await fetch(url, { headers: { accept: "application/json" } }).catch(() => null);
      if (stopped || !response?.ok) return;
      if (take((await response.json()) as T)) return;
      stopped = true;
      location.reload();
    }, everyMs);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
    // `take` is a new function each render doing the same work: the poll restarts only for another url.
  }, [url, everyMs]);
}

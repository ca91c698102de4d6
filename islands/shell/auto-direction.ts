// In a right-to-left page, free-text fields that say nothing of their direction take the
// direction of what is typed in them (dir="auto"), those in the markup and those islands add later.

/** Text fields that say nothing of their direction, in markup or added later by an island. */
const UNDIRECTED = "input:is([type=text], [type=search], :not([type])):not([dir]), textarea:not([dir])";

/**
 * In a right-to-left page, a free-text field without a direction of its own takes the direction
 * of what is typed in it (dir="auto"): a server named in Latin letters reads left to right, one
 * named in Arabic right to left. Fields for code say dir="ltr" in their markup and are left alone.
 */
export function autoDirection(root: Document): void {
  const mark = (scope: ParentNode) => scope.querySelectorAll<HTMLElement>(UNDIRECTED).forEach((field) => field.setAttribute("dir", "auto"));
  mark(root);
  new MutationObserver((changes) => {
    for (const change of changes) for (const node of change.addedNodes) if (node instanceof Element) {
      if (node.matches(UNDIRECTED)) node.setAttribute("dir", "auto");
      mark(node);
    }
  }).observe(root.body, { childList: true, subtree: true });
}

// The import dialog with script (views/pages/templates/ImportDialog): the list filters as one
// types in its search, by the same rule as the search form (core/templates/search), and each
// repository that was still loading when the dialog was sent is fetched on its own and put in
// place when it answers, so the quick ones are usable at once. Without script, the search form
// and the "show when loaded" link do the same by page loads.
import { matchesSearch } from "../../core/templates/search";

export function installTemplateImport(): void {
  const dialog = document.querySelector<HTMLElement>("[data-import-dialog]");
  if (!dialog) return;
  const input = dialog.querySelector<HTMLInputElement>("input[data-import-filter]");
  const apply = () => filter(dialog, input?.value ?? "");
  input?.addEventListener("input", apply);
  for (const section of dialog.querySelectorAll<HTMLElement>("[data-pending]")) void load(section, apply);
}

function filter(dialog: HTMLElement, query: string): void {
  for (const section of dialog.querySelectorAll<HTMLElement>(".template-repo")) {
    let shown = 0;
    for (const offer of section.querySelectorAll<HTMLElement>(".template-offer")) {
      offer.hidden = !matchesSearch(offer.dataset.search ?? "", query);
      if (!offer.hidden) shown++;
    }
    const none = section.querySelector<HTMLElement>(".template-repo-none");
    if (none) none.hidden = shown > 0;
  }
}

/** Replaces a loading section with the repository's own once it has answered; on failure the section's link stays. */
async function load(section: HTMLElement, then: () => void): Promise<void> {
  try {
    const response = await fetch(section.dataset.pending!, { credentials: "same-origin", headers: { accept: "text/html" } });
    if (!response.ok) return;
    const holder = document.createElement("template");
    holder.innerHTML = (await response.text()).trim();
    const fresh = holder.content.firstElementChild;
    if (fresh?.matches(".template-repo")) section.replaceWith(fresh);
    then();
  } catch {
    // offline or refused: the link to wait for it stays
  }
}

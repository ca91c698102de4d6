// Hydrates one island marker with React; split off so React loads only when an island needs it.
import { hydrateRoot } from "react-dom/client";
import { makeTranslate } from "../core/i18n/translate";
import type { IslandDef } from "./define";
import { I18nProvider } from "./lib/i18n";

export function hydrate(el: HTMLElement, island: IslandDef<any>, props: object, messages: Record<string, string>): void {
  // The page's lang attribute names its locale ("pt-BR"), for plural rules and number formats.
  const t = makeTranslate(messages, document.documentElement.lang || "en");
  hydrateRoot(
    el,
    <I18nProvider t={t}>
      <island.component {...props} />
    </I18nProvider>,
  );
  el.dataset.hydrated = "done";
}

// Renders an island on the server inside a marker the browser loader finds, and records its props.
import { I18nProvider } from "../../islands/lib/i18n";
import { makeTranslate } from "../../core/i18n/translate";
import { messagesFor } from "../../locales/tables";
import type { IslandDef } from "../../islands/define";
import { usePage } from "../context";

export function Island<P extends object>({ island, props }: { island: IslandDef<P>; props: P }) {
  const page = usePage();
  const index = page.islands.push({ name: island.name, props }) - 1;
  for (const prefix of island.messages) page.islandMessages.add(prefix);
  // The island sees the same restricted table on the server as in the browser, so a key it did
  // not declare shows up in the first render instead of as a hydration mismatch.
  const all = messagesFor(page.locale);
  const restricted = makeTranslate(new Proxy({}, { get: (_, key: string) => (island.messages.some((p) => key.startsWith(p)) ? all[key] : undefined) }), page.locale);
  return (
    <div className="island" data-island={island.name} data-index={index} data-hydrate={island.hydrate}>
      <I18nProvider t={restricted}>
        <island.component {...props} />
      </I18nProvider>
    </div>
  );
}

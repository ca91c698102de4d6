// At the end of the body: one JSON payload with every island's props and messages, and the
// loader. Emits nothing when the page rendered no island.
import { pickMessages } from "../../locales/tables";
import { usePage } from "../context";

export const ISLAND_PAYLOAD_ID = "kiln-islands";

export function IslandScripts() {
  const page = usePage();
  if (page.islands.length === 0) return null;
  const payload = { islands: page.islands, messages: pickMessages(page.locale, [...page.islandMessages]) };
  // "<" escaped so no string in the payload can close the script element.
  const json = JSON.stringify(payload).replace(/</g, "\\u003c");
  return (
    <>
      <script type="application/json" id={ISLAND_PAYLOAD_ID} dangerouslySetInnerHTML={{ __html: json }} />
      <script type="module" src={page.assets.url("client")} />
    </>
  );
}

// The import dialog's search, one rule for the server (the search form without script) and the
// page's script (filtering as one types): every word of the query, in any case, somewhere in an
// offer's display name, id or type.

/** The text an offer is searched in (lower case). */
export function offerSearchText(offer: { display: string; id: string; type: string }): string {
  return `${offer.display} ${offer.id} ${offer.type}`.toLowerCase();
}

/** Whether `text` (as offerSearchText makes it) holds every word of `query`. */
export function matchesSearch(text: string, query: string): boolean {
  return query.toLowerCase().split(/\s+/).filter(Boolean).every((word) => text.includes(word));
}

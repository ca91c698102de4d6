// One spelling of an email address for storing, looking up and counting login attempts. Anything
// two spellings differ by here (surrounding white space, tabs, line breaks, letter case, Unicode
// compatibility forms such as full-width letters) must not make them two accounts, nor two
// counters on the login throttle.
export function normalizeEmail(value: string): string {
  // NFKC again after lower-casing: a few lower-case forms are not themselves in NFKC.
  return value.normalize("NFKC").toLowerCase().normalize("NFKC").trim();
}

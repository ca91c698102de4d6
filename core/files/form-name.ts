// A name in a plain HTML form's field (the file manager's row buttons and ticked boxes, which
// work without script). A browser sends every line break in a field as CR LF ("converting line
// breaks", HTML's form submission), so a name holding a lone LF or CR came back as another name
// and its row could not be deleted or renamed. Such a name goes as "/" and its URL encoding: no
// name holds "/", so the form can never be read as a name that is not meant. Any other name goes
// as it is.

/** The field value standing for `name`. */
export function formName(name: string): string {
  return /[\r\n]/.test(name) ? `/${encodeURIComponent(name)}` : name;
}

/** The name a field value stands for; null for a value no name gives. */
export function nameFromForm(value: string): string | null {
  if (!value.startsWith("/")) return value;
  try {
    const name = decodeURIComponent(value.slice(1));
    return name.includes("/") ? null : name;
  } catch {
    return null;
  }
}

/**
 * Whether `name` is one entry's name as a folder can hold it: not empty, not "." or "..", no "/"
 * nor NUL. Unlike a name typed for something new, it is not trimmed: ".. " and "a " are names.
 */
export function isEntryName(name: string): boolean {
  return name !== "" && name !== "." && name !== ".." && !name.includes("/") && !name.includes("\0");
}

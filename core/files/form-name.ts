// A name in a plain HTML form's field (the file manager's row buttons and ticked boxes, which
// work without script), and a folder's path in one (the hidden "folder" of every form inside it). A browser sends every line break in a field as CR LF ("converting line
// breaks", HTML's form submission), so a name holding a lone LF or CR came back as another name
// and its row could not be deleted or renamed. Such a name goes as "/" and its URL encoding: no
// name holds "/", so the form can never be read as a name that is not meant. Any other name goes
// as it is. A path goes the same way: a normalized path never starts with "/" (core/files/paths).

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

/** The field value standing for the folder path `path` (normalized: no leading "/"). */
export function formPath(path: string): string {
  return formName(path);
}

/** The path a field value stands for (to be normalized by the caller); a value no path gives is taken as it is. */
export function pathFromForm(value: string): string {
  if (!value.startsWith("/")) return value;
  try {
    return decodeURIComponent(value.slice(1));
  } catch {
    return value;
  }
}

/**
 * The folder a text field names, given the path it was filled with (`offered`, normalized). A
 * browser strips line breaks from a text field's value, so a field filled with a folder holding
 * one came back naming another ("a\nb" as "ab", which may exist): a value that is the offered path
 * so stripped means the offered path. Anything else is the path typed (to be normalized).
 */
export function typedPath(typed: string, offered: string): string {
  const stripped = offered.replace(/[\r\n]/g, "");
  return stripped !== offered && typed.replace(/^\/+|\/+$/g, "") === stripped ? offered : typed;
}

// How a file's path is named inside a zip Kiln writes (the file manager's archives and zip
// downloads, a backup downloaded as zip). Zip entry names are "/"-separated, but a backslash is a
// legal character in a Linux name and a separator to Windows and to many unzippers, so a file
// named `..\..\x` would unpack two folders above where it was meant to go (and zip writers such as
// yazl refuse the name outright). A leading "C:" is a drive to the same unzippers. Such characters
// are written as their full-width forms, which look the same, are legal names everywhere and
// separate nothing: `\` becomes U+FF3C, and the colon of a leading drive letter U+FF1A. The name
// is then not the file's own byte for byte; tar.gz downloads keep names exactly.

const FULLWIDTH_REVERSE_SOLIDUS = "\uFF3C";
const FULLWIDTH_COLON = "\uFF1A";

/** The zip entry name for a "/"-separated relative path. */
export function zipEntryName(path: string): string {
  return path.replaceAll("\\", FULLWIDTH_REVERSE_SOLIDUS).replace(/^([A-Za-z]):/, `$1${FULLWIDTH_COLON}`);
}

// A file's name as the file manager shows it: characters that would hide or lie (controls, bidi
// overrides, zero-width characters, spaces at the ends, bytes that are not UTF-8) as visible
// escapes, marked apart from the name's own text (core/files/shown-name). Every action still goes
// by the name itself.
import { nameParts } from "../../core/files/shown-name";

export function FileName({ name }: { name: string }) {
  return (
    <span className="file-name" dir="ltr">
      {nameParts(name).map((part, i) =>
        part.escape ? (
          <mark key={i} className="name-escape">
            {part.text}
          </mark>
        ) : (
          part.text
        ),
      )}
    </span>
  );
}

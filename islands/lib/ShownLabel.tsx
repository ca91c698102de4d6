// A short label someone else wrote (a player's name, a list entry's reason) as people see it:
// characters that would hide or lie (bidi overrides, zero-width and other invisible characters,
// controls, spaces at the ends) as visible escapes, marked apart from the label's own text
// (core/text/shown-label), with `hint` as the tooltip that says why. Actions never go by what is
// shown here: they carry the label itself.
import { labelParts, type ExtraEscape } from "../../core/text/shown-label";

export interface ShownLabelProps {
  text: string;
  /** The tooltip of a label shown with escapes ("hidden characters marked"), in the reader's language. */
  hint?: string;
  /** Escapes of a kind of label besides the shared ones (a file name's bytes that are not UTF-8). */
  extra?: ExtraEscape;
  dir?: "ltr" | "auto";
  className?: string;
}

export function ShownLabel({ text, hint, extra, dir = "ltr", className }: ShownLabelProps) {
  const parts = labelParts(text, extra);
  const escaped = parts.some((part) => part.escape);
  return (
    <span className={className ? `shown-label ${className}` : "shown-label"} dir={dir} title={escaped ? hint : undefined} data-escaped={escaped ? "" : undefined}>
      {parts.map((part, i) =>
        part.escape ? (
          <mark key={i} className="label-escape">
            {part.text}
          </mark>
        ) : (
          part.text
        ),
      )}
    </span>
  );
}

// A project's picture without asking anyone for it: the first letter of its title on a colour
// chosen from its id. Sources' icons are not loaded, since the page's images are its own only
// (img-src 'self') and fetching them would tell the icon's host who looks at which project.
import { labelParts } from "../../core/text/shown-label";

const HUES = 8;

export function Avatar({ id, title, size = "md" }: { id: string; title: string; size?: "md" | "lg" }) {
  let hash = 0;
  for (const char of id) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  // The first letter as a person reads it, in capitals where the script has them: the first one
  // the rule of untrusted labels leaves as it is (an override or a space at the start draws nothing).
  const letter = [...(labelParts(title).find((part) => !part.escape)?.text ?? "")][0]?.toLocaleUpperCase() ?? "?";
  return (
    <span className={`mods-avatar mods-avatar-${size} mods-hue-${hash % HUES}`} aria-hidden="true">
      {letter}
    </span>
  );
}

// What converting a PufferPanel template or an egg changed, one line per note (core/definition/import-notes),
// so the user can check each change before saving. Long lists stay folded.
import type { Translate } from "../../core/i18n/translate";
import { useT } from "../lib/i18n";
import type { Converted } from "./useEditorModes";

export function ConversionNotes(converted: Converted) {
  return <ConversionNotesList {...converted} t={useT()} />;
}

/** The list itself, for a page rendered without the island (an import through the plain form). */
export function ConversionNotesList({ format, notes, t }: Converted & { t: Translate }) {
  const formatName = t(`templates.format.${format}`);
  const egg = format === "egg";
  if (notes.length === 0) return <p className="alert alert-info" data-conversion-notes="0">{t(egg ? "templates.convert.unchangedEgg" : "templates.convert.unchanged", { format: formatName })}</p>;
  return (
    <details className="alert alert-info" data-conversion-notes={notes.length} open={notes.length <= 8}>
      <summary>{t(egg ? "templates.convert.doneEgg" : "templates.convert.done", { format: formatName })} ({notes.length})</summary>
      <ul className="small">
        {notes.map((note, i) => (
          <li key={i} data-note={note.rule}>
            {t(`templates.importNote.${note.rule}`, { field: note.field, detail: note.detail ?? "" })}
          </li>
        ))}
      </ul>
    </details>
  );
}

// What extracting an archive would do where it was asked to (core/files ExtractPreview), in words:
// how many entries, a folder it makes, what it could not place (a file where a folder is), and
// what it replaces. Drawn by the file manager's Extract dialog and by the files tab's question
// without script, so both say it alike; the translator comes as a prop (shared markup takes
// everything as props).
import type { ExtractPreview } from "../../core/files";
import type { Translate } from "../../core/i18n/translate";

export function ExtractSummary({ preview, t, live }: { preview: ExtractPreview; t: Translate; /** read out when it changes (the dialog asks again as one types) */ live?: boolean }) {
  const more = preview.overwriteCount - preview.overwrites.length;
  return (
    <div className="stack files-extract-preview small" data-testid="files-extract-preview" aria-live={live ? "polite" : undefined}>
      <p>{t("files.extractEntries", { count: preview.entries })}</p>
      {preview.destinationExists ? null : <p>{t("files.extractMakesFolder", { folder: `/${preview.destination}` })}</p>}
      {preview.conflicts.length > 0 ? (
        <div className="stack" data-testid="files-extract-conflicts">
          <p className="files-field-error">{t("files.extractConflicts")}</p>
          <PathList paths={preview.conflicts} />
        </div>
      ) : null}
      {preview.overwriteCount === 0 ? (
        <p className="muted">{t("files.extractReplacesNothing")}</p>
      ) : (
        <div className="stack" data-testid="files-extract-overwrites">
          <p>{t("files.extractReplaces", { count: preview.overwriteCount })}</p>
          <PathList paths={preview.overwrites} />
          {more > 0 ? <p className="muted">{t("files.extractMore", { count: more })}</p> : null}
        </div>
      )}
    </div>
  );
}

function PathList({ paths }: { paths: string[] }) {
  return (
    <ul className="files-name-list">
      {paths.map((path) => (
        <li key={path} dir="ltr">
          {`/${path}`}
        </li>
      ))}
    </ul>
  );
}

// Results of a search by name in the file manager, rendered by the server for the
// files tab's address with ?q= (the search field is a plain GET form, with or without script):
// each hit links to its folder, and a file to its download. A search the node cut short (too many
// entries or too long) says so.
import { shownName } from "../../../core/files/shown-name";
import { FileName } from "../../../islands/files/FileName";
import { formatBytes } from "../../../core/units";
import { baseName, parentPath, type NameSearch } from "../../../core/files";
import { usePage } from "../../context";
import { Alert } from "../../components/Alert";
import { Icon } from "../../../islands/lib/Icon";
import { download as downloadIcon } from "../../../islands/lib/icons";
import { file as fileIcon, folder as folderIcon } from "../../../islands/files/icons";
import { fileUrl } from "../../../islands/files/file-api";
import { filesPageUrl } from "../../../core/files/page-urls";

export type SearchView = { query: string; folder: string } & ({ found: NameSearch } | { error: string });

export function FileSearchResults({ serverId, search }: { serverId: string; search: SearchView }) {
  const { t } = usePage();
  const folder = search.folder === "" ? t("files.root") : `/${search.folder}`;
  return (
    <section className="card files-search-results" data-testid="files-search-results" aria-labelledby="files-search-title">
      <div className="files-search-head">
        <h2 id="files-search-title">{t("files.searchResults", { query: search.query, folder })}</h2>
        <a className="btn" href={filesPageUrl(serverId, search.folder)}>
          {t("files.searchClose")}
        </a>
      </div>
      {"error" in search ? (
        <Alert kind="error">{search.error}</Alert>
      ) : (
        <>
          {search.found.truncated ? <Alert kind="warning">{t("files.searchTruncated", { count: search.found.results.length })}</Alert> : null}
          {search.found.results.length === 0 ? <p className="muted">{t("files.searchNone")}</p> : null}
          <ul className="files-search-list">
            {search.found.results.map((hit) => (
              <li key={hit.path} data-path={hit.path}>
                <a href={filesPageUrl(serverId, hit.isFile ? parentPath(hit.path) : hit.path)} className="files-name">
                  <Icon path={hit.isFile ? fileIcon : folderIcon} size={18} />
                  <FileName name={hit.path} />
                </a>
                {hit.isFile ? (
                  <>
                    <span className="muted small">{formatBytes(hit.size, "decimal", 1, t.locale)}</span>
                    <a className="icon-btn" href={fileUrl(serverId, hit.path)} download={shownName(baseName(hit.path))} title={`${t("files.download")}: ${shownName(baseName(hit.path))}`} aria-label={`${t("files.download")}: ${shownName(baseName(hit.path))}`}>
                      <Icon path={downloadIcon} size={18} />
                    </a>
                  </>
                ) : null}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

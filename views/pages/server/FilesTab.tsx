// Files tab (the tab needs viewServerFiles or sftpServer).
// The SFTP card is for those who may use SFTP, the file manager
// for those who may view files. The card's values are plain selectable text; the copy buttons
// are small islands beside them. The card also says what SFTP lets this user do (read-only
// without putServerFiles, nothing without viewServerFiles: server/services/sftp/access.ts).
import type { FolderListing, SftpDetails } from "../../../core/files";
import type { SftpAccess } from "../../../server/services/sftp/access";
import { usePage } from "../../context";
import { Alert } from "../../components/Alert";
import { Island } from "../../components/Island";
import { Icon } from "../../../islands/lib/Icon";
import { openInNew } from "../../../islands/files/icons";
import { CopyButton } from "../../components/CopyButton";
import FileManager from "../../../islands/FileManager";
import { FilePendingCard, type FilePending } from "./FilePendingCard";
import { FileSearchResults, type SearchView } from "./FileSearchResults";

export interface FilesTabProps {
  serverId: string;
  /** null without sftpServer */
  sftp: { details: SftpDetails; access: SftpAccess } | null;
  /** null without viewServerFiles */
  files: {
    canEdit: boolean;
    path: string;
    listing: FolderListing | null;
    /** why the folder could not be listed (shown with a retry instead of an empty folder) */
    error: string | null;
    /** a search by name the address asked for (?q=) */
    search: SearchView | null;
    /** the second step of an action taken without script */
    pending: FilePending | null;
  } | null;
}

export function FilesTab({ serverId, sftp, files }: FilesTabProps) {
  return (
    <div className="stack files-tab">
      {files?.search ? <FileSearchResults serverId={serverId} search={files.search} /> : null}
      {files ? <Island island={FileManager} props={{ serverId, canEdit: files.canEdit, path: files.path, listing: files.listing, error: files.error, query: files.search?.query ?? "" }} /> : null}
      {files?.pending ? <FilePendingCard serverId={serverId} pending={files.pending} /> : null}
      {sftp ? <SftpCard sftp={sftp.details} access={sftp.access} /> : null}
    </div>
  );
}

function SftpCard({ sftp, access }: { sftp: SftpDetails; access: SftpAccess }) {
  const { t } = usePage();
  return (
    <section className="card files-sftp" data-testid="sftp-card" aria-labelledby="sftp-title">
      <div className="files-sftp-head">
        <div>
          <h2 id="sftp-title">{t("sftp.title")}</h2>
          <p className="muted small">{t("sftp.intro")}</p>
        </div>
        <a className="btn" href={sftp.url} data-testid="sftp-link">
          <Icon path={openInNew} size={18} />
          <span>{t("sftp.open")}</span>
        </a>
      </div>
      <dl className="files-sftp-facts">
        <div>
          <dt>{t("sftp.address")}</dt>
          <dd>
            <code data-testid="sftp-address">{sftp.address}</code>
            <CopyButton value={sftp.address} what={t("sftp.address")} />
          </dd>
        </div>
        <div>
          <dt>{t("sftp.username")}</dt>
          <dd>
            <code data-testid="sftp-username">{sftp.username}</code>
            <CopyButton value={sftp.username} what={t("sftp.username")} />
          </dd>
        </div>
        <div>
          <dt>{t("sftp.password")}</dt>
          <dd className="files-sftp-note">{t("sftp.passwordNote")}</dd>
        </div>
      </dl>
      <SftpAccessNote access={access} />
    </section>
  );
}

function SftpAccessNote({ access }: { access: SftpAccess }) {
  const { t } = usePage();
  if ("missing" in access) {
    return (
      <div data-testid="sftp-access" data-mode="none">
        <Alert kind="warning">{t("sftp.noAccess", { permission: t(`serverUsers.flag.${access.missing}`) })}</Alert>
      </div>
    );
  }
  const readOnly = access.mode === "read-only";
  return (
    <p className="muted small" data-testid="sftp-access" data-mode={access.mode}>
      <strong>{t(readOnly ? "sftp.readOnly" : "sftp.readWrite")}</strong> <span>{readOnly ? t("sftp.readOnlyNote", { permission: t("serverUsers.flag.putServerFiles") }) : t("sftp.readWriteNote")}</span>
    </p>
  );
}

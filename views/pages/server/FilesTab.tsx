// Files tab (spec section 2 "SFTP info" and "File manager"; section 6: the tab needs
// viewServerFiles or sftpServer). The SFTP card is for those who may use SFTP, the file manager
// for those who may view files. The card's values are plain selectable text; the copy buttons
// are small islands beside them.
import type { FolderListing, SftpDetails } from "../../../core/files";
import { usePage } from "../../context";
import { Island } from "../../components/Island";
import { Icon } from "../../../islands/lib/Icon";
import { openInNew } from "../../../islands/files/icons";
import CopyButton from "../../../islands/CopyButton";
import FileManager from "../../../islands/FileManager";

export interface FilesTabProps {
  serverId: string;
  /** null without sftpServer */
  sftp: SftpDetails | null;
  /** null without viewServerFiles */
  files: { canEdit: boolean; path: string; listing: FolderListing | null } | null;
}

export function FilesTab({ serverId, sftp, files }: FilesTabProps) {
  return (
    <div className="stack files-tab">
      {files ? <Island island={FileManager} props={{ serverId, canEdit: files.canEdit, path: files.path, listing: files.listing }} /> : null}
      {sftp ? <SftpCard sftp={sftp} /> : null}
    </div>
  );
}

function SftpCard({ sftp }: { sftp: SftpDetails }) {
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
            <Island island={CopyButton} props={{ value: sftp.address, what: t("sftp.address") }} />
          </dd>
        </div>
        <div>
          <dt>{t("sftp.username")}</dt>
          <dd>
            <code data-testid="sftp-username">{sftp.username}</code>
            <Island island={CopyButton} props={{ value: sftp.username, what: t("sftp.username") }} />
          </dd>
        </div>
        <div>
          <dt>{t("sftp.password")}</dt>
          <dd className="files-sftp-note">{t("sftp.passwordNote")}</dd>
        </div>
      </dl>
    </section>
  );
}

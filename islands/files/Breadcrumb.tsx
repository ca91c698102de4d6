// Where the file manager is: the server's folder, then each folder down to the current one, each
// a link (to the page of that folder, so it works without script too).
import type { MouseEvent } from "react";
import { crumbs } from "../../core/files";
import { useT } from "../lib/i18n";
import { Icon } from "../lib/Icon";
import { chevronRight, home } from "./icons";
import { filesPageUrl } from "../../core/files/page-urls";
import { FileName } from "./FileName";

export function Breadcrumb({ serverId, path, onOpen }: { serverId: string; path: string; onOpen: (path: string) => void }) {
  const t = useT();
  const parts = [{ name: t("files.root"), path: "" }, ...crumbs(path)];
  const follow = (target: string) => (e: MouseEvent) => {
    if (e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    onOpen(target);
  };
  return (
    <nav className="files-breadcrumb" aria-label={t("files.path")}>
      <ol>
        {parts.map((part, i) => {
          const last = i === parts.length - 1;
          return (
            <li key={part.path || "/"}>
              {i > 0 ? <Icon path={chevronRight} size={16} /> : null}
              <a href={filesPageUrl(serverId, part.path)} aria-current={last ? "page" : undefined} onClick={follow(part.path)}>
                {i === 0 ? <Icon path={home} size={18} /> : null}
                {i === 0 ? <span>{part.name}</span> : <FileName name={part.name} />}
              </a>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

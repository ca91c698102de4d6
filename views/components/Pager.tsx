// Previous / "page x of y" / next, for paged lists.
import { usePage } from "../context";

export function Pager({ page, pages, link }: { page: number; pages: number; link: (page: number) => string }) {
  const { t } = usePage();
  if (pages <= 1) return null;
  return (
    <nav className="pager" aria-label={t("users.page", { page, pages })}>
      {page > 1 ? <a className="btn" href={link(page - 1)}>{t("users.previous")}</a> : <span />}
      <span className="muted">{t("users.page", { page, pages })}</span>
      {page < pages ? <a className="btn" href={link(page + 1)}>{t("users.next")}</a> : <span />}
    </nav>
  );
}

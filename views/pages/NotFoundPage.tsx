import { Shell } from "../layout/Shell";
import { usePage } from "../context";

export function NotFoundPage() {
  const { t, user } = usePage();
  return (
    <Shell title={t("page.notFound.title")}>
      <section className="card message-card">
        <p className="big-code" aria-hidden="true">404</p>
        <h1>{t("page.notFound.title")}</h1>
        <p className="muted">{t("page.notFound.text")}</p>
        <a className="btn btn-primary" href={user ? "/server" : "/auth/login"}>{t("common.backHome")}</a>
      </section>
    </Shell>
  );
}

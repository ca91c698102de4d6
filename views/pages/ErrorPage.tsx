// What a browser sees when a page request fails: the catalogue message, never internals.
import { Shell } from "../layout/Shell";
import { usePage } from "../context";

export function ErrorPage({ message }: { message: string }) {
  const { t, user } = usePage();
  return (
    <Shell title={t("errors.title")}>
      <section className="card message-card">
        <h1>{t("errors.title")}</h1>
        <p className="muted">{message}</p>
        <a className="btn btn-primary" href={user ? "/server" : "/auth/login"}>{t("common.backHome")}</a>
      </section>
    </Shell>
  );
}

// What a browser sees when a page request fails: the catalogue message, never internals. A thing
// that is not there (404) and a thing the account may not open (403) get pages of their own that
// say so and what to do, rather than "Something went wrong".
import { Shell } from "../layout/Shell";
import { usePage } from "../context";

/** `status` is the catalogue status of the error; `message` its translated sentence. */
export function ErrorPage({ status, message }: { status: number; message: string }) {
  const { t, user } = usePage();
  const kind = status === 404 ? "notFound" : status === 403 ? "noAccess" : null;
  const title = kind ? t(`errorPage.${kind}.title`) : t("errors.title");
  return (
    <Shell title={title}>
      <section className="card message-card" data-testid="error-page" data-status={status}>
        {kind ? <p className="big-code" aria-hidden="true">{status}</p> : null}
        <h1>{title}</h1>
        {kind ? <p>{t(`errorPage.${kind}.text`)}</p> : null}
        <p className="muted">{message}</p>
        <a className="btn btn-primary" href={user ? "/server" : "/auth/login"}>{kind && user ? t("errorPage.toServers") : t("common.backHome")}</a>
      </section>
    </Shell>
  );
}

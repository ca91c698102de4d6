// Account screen: who is logged in. Editing, two-factor, passkeys and OAuth2 clients arrive with
// the accounts release.
import { Shell, PageHeader } from "../layout/Shell";
import { usePage } from "../context";

export function AccountPage() {
  const { t, user } = usePage();
  return (
    <Shell title={t("page.account.title")}>
      <PageHeader title={t("page.account.title")} />
      <section className="card">
        <dl className="facts">
          <dt>{t("page.account.username")}</dt>
          <dd>{user?.username}</dd>
          <dt>{t("page.account.email")}</dt>
          <dd>{user?.email}</dd>
        </dl>
      </section>
    </Shell>
  );
}

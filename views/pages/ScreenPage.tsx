// A screen whose content arrives with a later release: its real title and an honest notice.
import { Shell, PageHeader } from "../layout/Shell";
import { usePage } from "../context";

export function ScreenPage({ titleKey, noticeKey = "page.comingSoon" }: { titleKey: string; noticeKey?: string }) {
  const { t } = usePage();
  return (
    <Shell title={t(titleKey)}>
      <PageHeader title={t(titleKey)} />
      <section className="card empty-state">
        <p>{t(noticeKey)}</p>
      </section>
    </Shell>
  );
}

// Server list (spec section 2). Servers arrive with the servers release; until then the list is
// truthfully empty.
import { Shell, PageHeader } from "../layout/Shell";
import { usePage } from "../context";
import { Icon } from "../../islands/lib/Icon";
import { servers } from "../../islands/lib/icons";

export function ServersPage() {
  const { t } = usePage();
  return (
    <Shell title={t("page.servers.title")}>
      <PageHeader title={t("page.servers.title")} />
      <section className="card empty-state">
        <Icon path={servers} size={40} />
        <p>{t("page.servers.empty")}</p>
      </section>
    </Shell>
  );
}

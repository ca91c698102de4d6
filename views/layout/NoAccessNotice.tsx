// Someone who holds nothing yet (a self-registered user: no scope, no server shared with them)
// lands on Account, where nothing would tell them why the panel is empty: this
// note says on every page but the server list (whose empty state says it) that an administrator
// must give them access. Not on the page a confirmation link lands on: it is the confirming itself.
import { usePage } from "../context";
import { Alert } from "../components/Alert";
import { NoAccessWhatNext } from "../components/NoAccessWhatNext";

export function NoAccessNotice() {
  const { t, user, sharedServers, path } = usePage();
  if (!user || user.serverId || user.scopes.length > 0 || sharedServers || path === "/server" || path === "/auth/confirm-email") return null;
  return (
    <div className="no-access-notice" data-testid="no-access-notice">
      <Alert kind="info">
        <strong>{t("serverList.noAccess")}</strong> <NoAccessWhatNext />
      </Alert>
    </div>
  );
}

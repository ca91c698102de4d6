// The Account screen's word to an account without a password whose login holds no fresh sign-in
// through its provider: switching two-factor on or linking a provider asks for one
// (services/auth/credentials requireHolderProof), so it offers that sign-in through each linked
// provider, asking it to have the person sign in again (fresh=1), and coming back here.
import type { LinkedIdentity } from "../../../server/services/sso/identities";
import { usePage } from "../../context";
import { Alert } from "../../components/Alert";

export function ProviderSignInNotice({ identities }: { identities: LinkedIdentity[] }) {
  const { t } = usePage();
  if (identities.length === 0) return null;
  return (
    <Alert kind="info">
      <div className="stack" data-testid="provider-sign-in">
        <p>{t("errors.ErrProviderSignInRequired")}</p>
        <div>
          {identities.map((identity) => (
            <a key={identity.providerId} className="btn" href={`/auth/sso/${encodeURIComponent(identity.providerId)}?next=/account&fresh=1`}>{t("sso.continueWith", { name: identity.providerName })}</a>
          ))}
        </div>
      </div>
    </Alert>
  );
}

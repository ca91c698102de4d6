// Network tab (anyone who sees the server): the ports the server holds from its node's pool, the
// primary (its address) first, each as players type it. Holders of manageAllocations and
// administrators make another primary, give extras back and take a free port; administrators set
// how many extras the others may take. A server without allocations (its node keeps no pool)
// uses the ports its variables name, and the tab says so. Plain forms, each ending in a redirect
// with a toast or the tab again with the refusal.
import { usePage } from "../../context";

/** One port as the tab shows it: the address players type (alias or host, then :port). */
export interface ShownAllocation {
  id: number;
  address: string;
  primary: boolean;
}

export interface NetworkTabProps {
  serverId: string;
  node: { id: number; name: string };
  allocations: ShownAllocation[];
  /** the node keeps a pool of ports at all */
  pool: boolean;
  /** the node's free ports to take one of; null when the caller may not change the server's ports */
  free: Omit<ShownAllocation, "primary">[] | null;
  /** how many extras holders of manageAllocations may take */
  limit: number;
  admin: boolean;
}

/** Most a server's limit of extras may be (services/allocations checks it too). */
export const MAX_ALLOCATION_LIMIT = 100;

export function NetworkTab({ serverId, node, allocations, pool, free, limit, admin }: NetworkTabProps) {
  const { t } = usePage();
  const base = `/server/${serverId}/network`;
  const manages = free !== null;
  // The primary is the server's address, not an extra.
  const extras = Math.max(0, allocations.length - 1);
  return (
    <div className="stack" data-testid="network">
      <section className="card stack" data-testid="network-allocations">
        <div className="card-head">
          <h2>{t("network.title")}</h2>
          {/* Administrators are not held to the limit: theirs is the count alone (the limit has its card). */}
          {manages && allocations.length > 0 ? <span className="badge" data-testid="network-extras">{admin ? t("network.extrasAdmin", { extras }) : t("network.extras", { extras, limit })}</span> : null}
        </div>
        {allocations.length === 0 ? (
          <div className="stack" data-testid="network-none">
            <p className="muted">{t(pool ? "network.noneHeld" : "network.none")}</p>
            {admin && !pool ? (
              <p className="muted small">
                {t("network.poolHint")} <a href={`/node/${node.id}#ports`}>{t("network.poolLink", { node: node.name })}</a>
              </p>
            ) : null}
          </div>
        ) : (
          <>
            <p className="muted small">{t("network.intro")}</p>
            <ul className="list">
              {allocations.map((allocation) => (
                <AllocationRow key={allocation.id} base={base} allocation={allocation} manages={manages} />
              ))}
            </ul>
          </>
        )}
      </section>
      {free !== null && pool ? <AddPort base={base} free={free} full={!admin && allocations.length >= 1 + limit} /> : null}
      {admin && pool ? <LimitForm base={base} limit={limit} /> : null}
    </div>
  );
}

function AllocationRow({ base, allocation, manages }: { base: string; allocation: ShownAllocation; manages: boolean }) {
  const { t } = usePage();
  return (
    <li className="list-row network-row" data-testid="allocation" data-allocation={allocation.id} data-primary={allocation.primary ? "" : undefined}>
      <div className="network-address">
        <code dir="ltr">{allocation.address}</code>
        {allocation.primary ? <span className="badge badge-on">{t("network.primary")}</span> : null}
      </div>
      {/* The primary is neither made primary nor given back: another is made primary first. */}
      {manages && !allocation.primary ? (
        <div className="row-actions">
          <form method="post" action={`${base}/${allocation.id}/primary`}>
            <button type="submit" className="btn" data-testid="make-primary">{t("network.makePrimary")}</button>
          </form>
          <form method="post" action={`${base}/${allocation.id}/remove`}>
            <button type="submit" className="btn btn-danger-text" data-testid="give-back">{t("network.giveBack")}</button>
          </form>
        </div>
      ) : null}
    </li>
  );
}

function AddPort({ base, free, full }: { base: string; free: Omit<ShownAllocation, "primary">[]; full: boolean }) {
  const { t } = usePage();
  return (
    <section className="card stack" data-testid="network-add">
      <h2>{t("network.add.title")}</h2>
      {free.length === 0 ? (
        <p className="muted">{t("network.add.none")}</p>
      ) : (
        <>
          <form method="post" action={`${base}/add`} className="inline-form network-form">
            <label className="field">
              <span className="field-label">{t("network.add.port")}</span>
              <select name="allocationId" defaultValue="" disabled={full}>
                <option value="">{t("network.add.any")}</option>
                {free.map((allocation) => (
                  <option key={allocation.id} value={allocation.id}>{allocation.address}</option>
                ))}
              </select>
            </label>
            <button type="submit" className="btn btn-primary" disabled={full}>{t("network.add.submit")}</button>
          </form>
          <p className="field-hint">{t(full ? "network.add.full" : "network.add.hint")}</p>
        </>
      )}
    </section>
  );
}

function LimitForm({ base, limit }: { base: string; limit: number }) {
  const { t } = usePage();
  return (
    <section className="card stack network-limit" data-testid="network-limit">
      <h2>{t("network.limit.title")}</h2>
      <form method="post" action={`${base}/limit`} className="inline-form network-form">
        <label className="field">
          <span className="field-label">{t("network.limit.label")}</span>
          <input type="number" name="limit" min={0} max={MAX_ALLOCATION_LIMIT} step={1} required defaultValue={limit} inputMode="numeric" />
        </label>
        <button type="submit" className="btn">{t("common.save")}</button>
      </form>
      <p className="field-hint">{t("network.limit.hint", { max: MAX_ALLOCATION_LIMIT })}</p>
    </section>
  );
}

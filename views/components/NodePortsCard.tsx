// The node's pool of ports on its page: who holds each, a remove button on a free one and a form
// to add an address with a port, a range or a list (holders of nodes.edit; the routes are
// server/routes/node-pool-forms.tsx). Plain forms: they work without script.
import type { AllocationView } from "../../server/services/allocations/pool";
import { usePage } from "../context";
import { Alert } from "./Alert";
import { formErrors, type FormError } from "./form-errors";
import { TextField } from "./TextField";

export const POOL_ANCHOR = "ports";
export const POOL_FIELDS = ["ip", "ports", "alias"] as const;
export type PoolFormValues = Record<(typeof POOL_FIELDS)[number], string>;
export const NEW_POOL_VALUES: PoolFormValues = { ip: "0.0.0.0", ports: "", alias: "" };

/** One row of the table: a port of its own, or a run of consecutive free ports shown as one. */
export type PoolRow = { kind: "port"; allocation: AllocationView } | { kind: "free"; ip: string; alias: string | null; from: number; to: number; count: number };

/**
 * A pool is often hundreds of ports added as ranges, and a row each would bury the few that
 * matter. So consecutive free ports of one address and alias are one row ("30000–30099, 100
 * free") with no remove button: removing one of them is a deliberate act, made from the list
 * that shows each port on its own (`each`), where every free port has its button. Ports a
 * server holds always have a row each. `pool` is in listPool's order (address, then port).
 */
export function poolRows(pool: readonly AllocationView[], each = false): PoolRow[] {
  const rows: PoolRow[] = [];
  let run: AllocationView[] = [];
  const flush = () => {
    if (run.length > 1) rows.push({ kind: "free", ip: run[0]!.ip, alias: run[0]!.alias, from: run[0]!.port, to: run.at(-1)!.port, count: run.length });
    else if (run.length === 1) rows.push({ kind: "port", allocation: run[0]! });
    run = [];
  };
  for (const allocation of pool) {
    const last = run.at(-1);
    if (last && !(allocation.serverId === null && allocation.ip === last.ip && allocation.alias === last.alias && allocation.port === last.port + 1)) flush();
    if (!each && allocation.serverId === null) run.push(allocation);
    else rows.push({ kind: "port", allocation });
  }
  flush();
  return rows;
}

/** ip:port as it is typed, an IPv6 address in brackets; `port` may be a range's text. */
export function poolAddress(ip: string, port: number | string): string {
  return `${ip.includes(":") ? `[${ip}]` : ip}:${port}`;
}

export interface NodePortsCardProps {
  nodeId: number;
  pool: AllocationView[];
  /** the names of the servers holding ports, by id */
  holders: Record<string, string>;
  /** may add and remove ports (nodes.edit) */
  canEdit: boolean;
  /** every port on its own row (see poolRows) */
  each: boolean;
  /** what the add form shows: the defaults, or what was posted when it was refused */
  values?: PoolFormValues;
  /** the last post's refusal, by the form it concerns */
  error?: FormError & { form: "add" | "remove" };
}

export function NodePortsCard({ nodeId, pool, holders, canEdit, each, values = NEW_POOL_VALUES, error }: NodePortsCardProps) {
  const { t } = usePage();
  const rows = poolRows(pool, each);
  const grouped = rows.some((row) => row.kind === "free");
  const free = pool.filter((allocation) => allocation.serverId === null).length;
  return (
    <section className="card stack node-pool" id={POOL_ANCHOR} data-testid="node-pool">
      <div className="card-head">
        <h2>{t("nodes.pool.title")}</h2>
        {pool.length > 0 ? <span className="muted small">{t("nodes.pool.summary", { count: pool.length, free })}</span> : null}
      </div>
      <p className="muted small">{t("nodes.pool.intro")}</p>
      {error?.form === "remove" ? <div data-testid="pool-remove-error"><FormAlert title={t("nodes.pool.removeFailed")} message={error.message} /></div> : null}
      <div className="node-pool-body">
        <div className="stack node-pool-list">
          {pool.length === 0 ? <p className="muted" data-testid="pool-empty">{t("nodes.pool.empty")}</p> : <PoolTable nodeId={nodeId} rows={rows} holders={holders} canEdit={canEdit} />}
          {grouped || each ? (
            <p className="small">
              <a href={each ? `/node/${nodeId}#${POOL_ANCHOR}` : `/node/${nodeId}?ports=each#${POOL_ANCHOR}`} data-testid="pool-each">{t(each ? "nodes.pool.groupFree" : "nodes.pool.showEach")}</a>
            </p>
          ) : null}
        </div>
        {canEdit ? <AddPorts nodeId={nodeId} values={values} error={error?.form === "add" ? error : undefined} /> : null}
      </div>
    </section>
  );
}

function PoolTable({ nodeId, rows, holders, canEdit }: { nodeId: number; rows: PoolRow[]; holders: Record<string, string>; canEdit: boolean }) {
  const { t } = usePage();
  return (
    <div className="node-pool-scroll">
      <table className="data-table node-pool-table" data-testid="pool-table">
        <thead>
          <tr>
            <th>{t("nodes.pool.address")}</th>
            <th>{t("nodes.pool.alias")}</th>
            <th>{t("nodes.pool.server")}</th>
            {canEdit ? <th><span className="sr-only">{t("nodes.pool.remove")}</span></th> : null}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) =>
            row.kind === "free" ? (
              <FreeRun key={`${row.ip}:${row.from}`} row={row} canEdit={canEdit} />
            ) : (
              <PortRow key={row.allocation.id} nodeId={nodeId} allocation={row.allocation} holder={row.allocation.serverId ? holders[row.allocation.serverId] : undefined} canEdit={canEdit} />
            ),
          )}
        </tbody>
      </table>
    </div>
  );
}

function FormAlert({ title, message }: { title: string; message: string }) {
  return (
    <Alert kind="error">
      <strong>{title}</strong>
      <p className="node-alert-text">{message}</p>
    </Alert>
  );
}

/** The alias cell; one without an alias is marked, so a phone's stacked row leaves it out. */
function AliasCell({ alias }: { alias: string | null }) {
  const { t } = usePage();
  return (
    <td data-cell="alias" data-label={t("nodes.pool.alias")} data-empty={alias ? undefined : ""}>
      {alias ? <bdi dir="ltr">{alias}</bdi> : <span className="muted">—</span>}
    </td>
  );
}

function PortRow({ nodeId, allocation, holder, canEdit }: { nodeId: number; allocation: AllocationView; holder?: string; canEdit: boolean }) {
  const { t } = usePage();
  const address = poolAddress(allocation.ip, allocation.port);
  return (
    <tr data-port={allocation.port} data-ip={allocation.ip}>
      <td data-cell="address"><code dir="ltr">{address}</code></td>
      <AliasCell alias={allocation.alias} />
      <td data-cell="server" data-label={t("nodes.pool.server")}>
        {/* A server the viewer cannot open is shown by its id alone, not named or linked. */}
        {allocation.serverId ? holder ? <a href={`/server/${allocation.serverId}`}>{holder}</a> : <code>{allocation.serverId}</code> : <span className="muted">{t("nodes.pool.free")}</span>}
      </td>
      {canEdit ? (
        <td data-cell="actions">
          {allocation.serverId === null ? (
            <form method="post" action={`/node/${nodeId}/allocations/${allocation.id}/delete#${POOL_ANCHOR}`}>
              <button type="submit" className="btn btn-danger-text node-pool-remove" aria-label={t("nodes.pool.removeLabel", { address })}>{t("nodes.pool.remove")}</button>
            </form>
          ) : null}
        </td>
      ) : null}
    </tr>
  );
}

function FreeRun({ row, canEdit }: { row: Extract<PoolRow, { kind: "free" }>; canEdit: boolean }) {
  const { t } = usePage();
  return (
    <tr data-run={`${row.from}-${row.to}`} data-ip={row.ip}>
      <td data-cell="address"><code dir="ltr">{poolAddress(row.ip, `${row.from}–${row.to}`)}</code></td>
      <AliasCell alias={row.alias} />
      <td data-cell="server" data-label={t("nodes.pool.server")}><span className="muted">{t("nodes.pool.freeRun", { count: row.count })}</span></td>
      {canEdit ? <td data-cell="actions" /> : null}
    </tr>
  );
}

function AddPorts({ nodeId, values, error }: { nodeId: number; values: PoolFormValues; error?: FormError }) {
  const { t } = usePage();
  const errors = formErrors("pool", error, POOL_FIELDS);
  const text = { spellCheck: false, autoComplete: "off", autoCapitalize: "off" } as const;
  return (
    <form method="post" action={`/node/${nodeId}/allocations#${POOL_ANCHOR}`} className="stack node-pool-add" data-testid="pool-add">
      <h3>{t("nodes.pool.add")}</h3>
      {/* A refusal about one field is said at that field instead. */}
      {error && !(POOL_FIELDS as readonly string[]).includes(error.field ?? "") ? <FormAlert title={t("nodes.pool.addFailed")} message={error.message} /> : null}
      <div className="node-pool-fields">
        <TextField name="ip" label={t("nodes.pool.field.ip")} errors={errors} hint={t("nodes.pool.ipHint")} defaultValue={values.ip} required dir="ltr" {...text} />
        <TextField name="ports" label={t("nodes.pool.field.ports")} errors={errors} hint={t("nodes.pool.portsHint")} defaultValue={values.ports} required placeholder="25565-25600" dir="ltr" {...text} />
        <TextField name="alias" label={t("nodes.pool.field.alias")} errors={errors} hint={t("nodes.pool.aliasHint")} defaultValue={values.alias} placeholder="play.example.com" dir="ltr" {...text} />
      </div>
      <div>
        <button type="submit" className="btn btn-primary">{t("nodes.pool.addSubmit")}</button>
      </div>
    </form>
  );
}

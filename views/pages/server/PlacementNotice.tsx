// Where "Best node" put a server just made, and why: the chosen node's figures (free memory, CPU
// in use, free disk, free ports; a figure the node did not give is left out), and under it every
// node asked, with what kept the others out. Shown once, on the page the add-server form
// redirects to.
import { formatBytes } from "../../../core/units";
import type { Translate } from "../../../core/i18n/translate";
import type { NodeFit } from "../../../server/services/placement";
import { usePage } from "../../context";
import { Alert } from "../../components/Alert";

/** The node chosen, and every node as placement saw it. */
export interface Placement {
  node: string;
  reasons: NodeFit[];
}

/** A node's figures in words, as a list in the reader's language ("6.1 GB memory free, 35% CPU, 3 ports free"). */
export function placementFigures(reason: NodeFit, t: Translate): string {
  const bytes = (n: number) => formatBytes(n, "decimal", 1, t.locale);
  const parts = [
    reason.freeMemoryBytes === null ? null : t("placement.freeMemory", { size: bytes(Math.max(0, reason.freeMemoryBytes)) }),
    reason.cpuPercent === null ? null : t("placement.cpu", { percent: reason.cpuPercent }),
    reason.freeDiskBytes === null ? null : t("placement.freeDisk", { size: bytes(reason.freeDiskBytes) }),
    reason.freePorts === null ? null : t("placement.freePorts", { count: reason.freePorts }),
  ].filter((part): part is string => part !== null);
  return new Intl.ListFormat(t.locale, { style: "short", type: "unit" }).format(parts);
}

/** What kept a node out, in words ("not enough memory, draining"). */
function keptOut(short: readonly string[], t: Translate): string {
  return new Intl.ListFormat(t.locale, { style: "short", type: "unit" }).format(short.map((s) => t(`placement.why.${s}`)));
}

export function PlacementNotice({ placement }: { placement: Placement }) {
  const { t } = usePage();
  const chosen = placement.reasons.find((r) => r.node === placement.node && r.fits);
  const figures = chosen ? placementFigures(chosen, t) : "";
  const others = placement.reasons.filter((r) => r !== chosen);
  return (
    <div className="placement-notice" data-testid="placement-notice">
      <Alert kind="info">
        <p>{figures ? t("placement.placed", { node: placement.node, figures }) : t("placement.placedBare", { node: placement.node })}</p>
        {others.length > 0 ? (
          <details className="placement-others">
            <summary>{t("placement.others", { count: others.length })}</summary>
            <ul>
              {others.map((r) => (
                <li key={r.node}>{t("placement.otherNode", { node: r.node, why: r.fits ? t("placement.alsoFits", { figures: placementFigures(r, t) }) : keptOut(r.short, t) })}</li>
              ))}
            </ul>
          </details>
        ) : null}
      </Alert>
    </div>
  );
}

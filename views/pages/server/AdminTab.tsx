// Admin tab: the server's OAuth2 clients (shown to
// everyone), and the controls: run-flag switches, edit definition and reload for admins, and
// delete for admins or holders of deleteServer.
import type { ClientView } from "../../../server/services/oauth2";
import type { ServerDefinition } from "../../../core/definition";
import { usePage } from "../../context";
import { Island } from "../../components/Island";
import { ConfirmActions, ModalDetails } from "../../components/Modal";
import { OAuth2ClientsCard } from "../../components/OAuth2ClientsCard";
import DefinitionEditor from "../../../islands/DefinitionEditor";
import { LimitsFields } from "../../components/LimitsFields";
import { BackupPolicyCard } from "./BackupPolicyCard";
import { TransferCard, type TransferCardProps } from "./TransferCard";
import type { BackupPolicy, TargetView } from "../../../core/backups";

export const RUN_FLAGS = ["autostart", "autorestart", "autorecover"] as const;
export type RunFlag = (typeof RUN_FLAGS)[number];

export interface AdminTabProps {
  serverId: string;
  clients: ClientView[];
  created?: { id: string; secret: string };
  admin: boolean;
  canDelete: boolean;
  /** the definition, for admins (null when the node could not be reached) */
  definition: ServerDefinition | null;
  /** The server's backup policy and the node's targets, for admins (null when the node could not be reached). */
  backupPolicy?: { policy: BackupPolicy; targets: TargetView[] } | null;
  /** Moving the server to another node, for admins: its latest move and the nodes it could go to. */
  transfer?: Omit<TransferCardProps, "serverId"> | null;
}

export function AdminTab({ serverId, clients, created, admin, canDelete, definition, backupPolicy, transfer }: AdminTabProps) {
  const { t } = usePage();
  const base = `/server/${serverId}`;
  return (
    <div className="stack">
      <OAuth2ClientsCard clients={clients} base={`${base}/oauth2`} back={`${base}?tab=admin`} serverLevel created={created} />
      {admin || canDelete ? (
        <section className="card stack" data-testid="server-admin">
          <h2>{t("serverAdmin.title")}</h2>
          {admin && definition ? (
            <form method="post" action={`${base}/flags`} className="stack">
              {RUN_FLAGS.map((flag) => (
                // Each switch is a submit button: a toggle saves at once, with or without script.
                <button key={flag} type="submit" name="flag" value={flag} className="switch-row" role="switch" aria-checked={definition.run[flag]}>
                  <span className={definition.run[flag] ? "switch on" : "switch"} aria-hidden="true" />
                  <span>
                    <strong>{t(`serverAdmin.${flag}`)}</strong>
                    <span className="field-hint"> {t(`serverAdmin.${flag}Hint`)}</span>
                  </span>
                </button>
              ))}
            </form>
          ) : null}
          {admin && definition ? (
            <form method="post" action={`${base}/limits`} className="stack" data-testid="limits-form">
              <LimitsFields limits={definition.limits} />
              <div><button type="submit" className="btn">{t("limits.save")}</button></div>
            </form>
          ) : null}
          {admin && backupPolicy ? <BackupPolicyCard serverId={serverId} policy={backupPolicy.policy} targets={backupPolicy.targets} /> : null}
          <div className="row-actions">
            {admin && definition ? <Island island={DefinitionEditor} props={{ serverId, definition }} /> : null}
            {admin ? (
              <form method="post" action={`${base}/reload`}>
                <button type="submit" className="btn">{t("serverAdmin.reload")}</button>
              </form>
            ) : null}
            {canDelete ? (
              <ModalDetails summary={t("serverAdmin.delete")} summaryClass="btn btn-danger" title={t("serverAdmin.delete")} testId="delete-server">
                <form method="post" action={`${base}/delete`} className="stack">
                  <p>{t("serverAdmin.deleteConfirm")}</p>
                  <ConfirmActions cancel={t("common.cancel")} confirm={t("common.delete")} />
                </form>
              </ModalDetails>
            ) : null}
          </div>
        </section>
      ) : null}
      {admin && transfer ? <TransferCard serverId={serverId} {...transfer} /> : null}
    </div>
  );
}

// Users tab (spec section 2 "Server users"): a card per user with access, opened by its pencil to
// show the permission switches; Update and Delete per card; a new-user card with email and Add.
import { SERVER_FLAGS, type ServerFlag } from "../../../core/scopes";
import type { ServerPermissions, ServerUserEntry } from "../../../server/services/servers";
import { usePage } from "../../context";
import { Icon } from "../../../islands/lib/Icon";
import { close, pencil } from "../../../islands/lib/icons";

function FlagSwitches({ values, grantable }: { values?: Partial<Record<ServerFlag, boolean>>; grantable: ServerPermissions }) {
  const { t } = usePage();
  return (
    <div className="flag-grid">
      {SERVER_FLAGS.map((flag) => (
        <label key={flag} className="check-row">
          {/* Nobody gives or takes away a permission they do not hold; the server refuses it too. */}
          <input type="checkbox" name={flag} value="true" defaultChecked={values?.[flag] ?? false} disabled={!grantable[flag]} />
          {/* A disabled box is not sent: one the caller cannot change is sent as it stands, so it stays. */}
          {!grantable[flag] && values?.[flag] ? <input type="hidden" name={flag} value="true" /> : null}
          <span>{t(`serverUsers.flag.${flag}`)}</span>
        </label>
      ))}
    </div>
  );
}

/** An invitation just made: emailed, or with its link when email failed (shown only to callers who may create accounts). */
export interface InvitedNotice {
  email: string;
  emailSent: boolean;
  url?: string;
}

export function UsersTab({ serverId, users, grantable, invited }: { serverId: string; users: (ServerUserEntry & { removable: boolean })[]; grantable: ServerPermissions; invited?: InvitedNotice }) {
  const { t } = usePage();
  const base = `/server/${serverId}/users`;
  return (
    <div className="stack">
      {invited ? (
        <div className="alert alert-info" role="status" data-testid="invited">
          <div>
            <strong>{t("users.invited")}</strong>
            {invited.emailSent ? <p>{t("users.inviteSent", { email: invited.email })}</p> : null}
            {!invited.emailSent && invited.url ? <p>{t("users.inviteLink", { email: invited.email })}</p> : null}
            {!invited.emailSent && invited.url ? <code data-testid="invite-url">{invited.url}</code> : null}
          </div>
        </div>
      ) : null}
      {users.map((u) => (
        <details key={u.email} className="card user-card" data-testid="server-user">
          <summary className="user-card-head">
            <span>
              <strong>{u.username || u.email}</strong>
              {u.username ? <span className="muted small"> {u.email}</span> : <span className="badge badge-warn">{t("users.status.invited")}</span>}
            </span>
            <span className="user-card-toggle" aria-label={t("serverUsers.edit")}>
              <span className="when-closed"><Icon path={pencil} size={18} /></span>
              <span className="when-open"><Icon path={close} size={18} /></span>
            </span>
          </summary>
          <form method="post" action={`${base}/${encodeURIComponent(u.email)}`} className="stack">
            {u.removable ? null : <p className="muted small">{t("serverUsers.holdsMore")}</p>}
            <FlagSwitches values={u} grantable={grantable} />
            <div className="dialog-actions">
              {u.removable ? <button type="submit" formAction={`${base}/${encodeURIComponent(u.email)}/delete`} className="btn btn-danger-text">{t("common.delete")}</button> : null}
              <button type="submit" className="btn btn-primary">{t("serverUsers.update")}</button>
            </div>
          </form>
        </details>
      ))}
      <details className="card user-card" open={users.length === 0}>
        <summary className="user-card-head">
          <strong>{t("serverUsers.new")}</strong>
          <span className="user-card-toggle"><span className="when-closed"><Icon path={pencil} size={18} /></span><span className="when-open"><Icon path={close} size={18} /></span></span>
        </summary>
        <form method="post" action={base} className="stack" data-testid="add-server-user">
          <label className="field">
            <span className="field-label">{t("auth.email")}</span>
            <input type="email" name="email" required />
          </label>
          <p className="muted small">{t("serverUsers.inviteHint")}</p>
          <FlagSwitches grantable={grantable} />
          <div className="dialog-actions">
            <a className="btn" href={`/server/${serverId}?tab=users`}>{t("common.cancel")}</a>
            <button type="submit" className="btn btn-primary">{t("serverUsers.add")}</button>
          </div>
        </form>
      </details>
    </div>
  );
}

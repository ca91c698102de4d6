// Users tab: a card per user with access, opened by its pencil to
// show the permission switches; Update and Delete per card; a new-user card with email and Add.
import { SERVER_FLAGS, type ServerFlag } from "../../../core/scopes";
import { SERVER_FLAG_GROUPS } from "../../../core/scopes/flag-groups";
import { PERMISSION_PRESETS, PRESET_NAMES, presetApplicable } from "../../../core/scopes/presets";
import type { ServerPermissions, ServerUserEntry } from "../../../server/services/servers";
import { usePage } from "../../context";
import { CopyableSecret } from "../../components/CopyableSecret";
import { UnconfirmedMark } from "../../components/UnconfirmedMark";
import { formErrors, type FormError } from "../../components/form-errors";
import { Icon } from "../../../islands/lib/Icon";
import { close, pencil } from "../../../islands/lib/icons";

/** The 13 switches in their groups (core/scopes/flag-groups), each with what it allows; `idPrefix` keeps ids apart between cards. */
function FlagSwitches({ values, grantable, idPrefix, ruleFlags = {} }: { values?: Partial<Record<ServerFlag, boolean>>; grantable: ServerPermissions; idPrefix: string; /** flag → the provider whose sign-in rule granted it (locked until detached on the user's page) */ ruleFlags?: Record<string, string> }) {
  const { t } = usePage();
  return (
    <div className="flag-groups">
      {SERVER_FLAG_GROUPS.map(({ group, flags }) => (
        <fieldset key={group} className="flag-group" data-flag-group={group}>
          <legend className="field-label">{t(`serverUsers.group.${group}`)}</legend>
          {flags.map((flag) => (
            <label key={flag} className="check-row flag-row">
              {/* Nobody gives or takes away a permission they do not hold; the server refuses it too. */}
              <input type="checkbox" name={flag} value="true" defaultChecked={values?.[flag] ?? false} disabled={!grantable[flag] || flag in ruleFlags} aria-describedby={`${idPrefix}-${flag}-hint`} />
              {/* A disabled box is not sent: one the caller cannot change is sent as it stands, so it stays. */}
              {(!grantable[flag] || flag in ruleFlags) && values?.[flag] ? <input type="hidden" name={flag} value="true" /> : null}
              <span className="flag-text">
                <span>{t(`serverUsers.flag.${flag}`)}{flag in ruleFlags ? <> <span className="badge" title={t("users.fromRuleHint", { provider: ruleFlags[flag]! })}>{t("users.fromRule", { provider: ruleFlags[flag]! })}</span></> : null}</span>
                <span className="field-hint" id={`${idPrefix}-${flag}-hint`}>
                  {t(`serverUsers.flagHint.${flag}`)}
                </span>
              </span>
            </label>
          ))}
        </fieldset>
      ))}
    </div>
  );
}

/**
 * Preset buttons (core/scopes/presets.ts). Without script each submits the form with its flags
 * (the server applies them); with script the shell sets the switches instead (data-preset) and
 * nothing is sent until Update or Add. A preset the caller cannot apply in full is disabled.
 */
function PresetButtons({ values, grantable }: { values?: Partial<Record<ServerFlag, boolean>>; grantable: ServerPermissions }) {
  const { t } = usePage();
  const current = new Set(SERVER_FLAGS.filter((flag) => values?.[flag]));
  return (
    <div className="preset-row" role="group" aria-label={t("serverUsers.presets")}>
      <span className="field-label">{t("serverUsers.presets")}</span>
      {PRESET_NAMES.map((preset) => {
        const applicable = presetApplicable(preset, current, grantable);
        return (
          <button
            key={preset}
            type="submit"
            name="preset"
            value={preset}
            className="btn btn-small"
            data-preset={PERMISSION_PRESETS[preset].join(" ")}
            disabled={!applicable}
            title={t(applicable ? `serverUsers.preset.${preset}.hint` : "serverUsers.presetBeyond")}
          >
            {t(`serverUsers.preset.${preset}`)}
          </button>
        );
      })}
    </div>
  );
}

/** Enter in a field submits with the form's first submit button: this one, ahead of the presets, so Enter means Update or Add. */
function DefaultSubmit({ label }: { label: string }) {
  return <button type="submit" className="sr-only" tabIndex={-1} aria-hidden="true">{label}</button>;
}

/** An invitation just made: emailed, or with its link when email failed (shown only to callers who may create accounts). */
export interface InvitedNotice {
  email: string;
  emailSent: boolean;
  url?: string;
}

export function UsersTab({ serverId, users, grantable, invited, addError, addPosted }: { serverId: string; users: (ServerUserEntry & { removable: boolean; ruleFlags: Record<string, string> })[]; grantable: ServerPermissions; invited?: InvitedNotice; /** the add form's refusal about its email */ addError?: FormError; /** what that refused add form sent */ addPosted?: Record<string, unknown> }) {
  const { t } = usePage();
  const add = formErrors("server-user-add", addError, ["email"]);
  // A refused add comes back as it was sent: the email and the switches ticked.
  const addValues = addPosted ? Object.fromEntries(SERVER_FLAGS.map((flag) => [flag, addPosted[flag] === "true"])) : undefined;
  const base = `/server/${serverId}/users`;
  return (
    <div className="stack">
      {invited ? (
        <div className="alert alert-info" role="status" data-testid="invited">
          <div>
            <strong>{t("users.invited")}</strong>
            {invited.emailSent ? <p>{t("users.inviteSent", { email: invited.email })}</p> : null}
            {!invited.emailSent && invited.url ? <p>{t("users.inviteLink", { email: invited.email })}</p> : null}
            {!invited.emailSent && invited.url ? <CopyableSecret value={invited.url} what={t("users.inviteLinkName")} testId="invite-url" /> : null}
          </div>
        </div>
      ) : null}
      {users.map((u, index) => (
        <details key={u.email} className="card user-card" data-testid="server-user">
          <summary className="user-card-head">
            <span>
              <strong>{u.username || u.email}</strong>
              {u.username ? <span className="muted small"> {u.email}</span> : <span className="badge badge-warn">{t("users.status.invited")}</span>}
              {u.username && !u.emailConfirmed ? <UnconfirmedMark /> : null}
            </span>
            <span className="user-card-toggle" aria-label={t("serverUsers.edit")}>
              <span className="when-closed"><Icon path={pencil} size={18} /></span>
              <span className="when-open"><Icon path={close} size={18} /></span>
            </span>
          </summary>
          <form method="post" action={`${base}/${encodeURIComponent(u.email)}`} className="stack">
            <DefaultSubmit label={t("serverUsers.update")} />
            {u.removable ? null : <p className="muted small">{t("serverUsers.holdsMore")}</p>}
            <PresetButtons values={u} grantable={grantable} />
            <FlagSwitches values={u} grantable={grantable} idPrefix={`server-user-${index}`} ruleFlags={u.ruleFlags} />
            <div className="dialog-actions">
              {u.removable && Object.keys(u.ruleFlags).length === 0 ? <button type="submit" formAction={`${base}/${encodeURIComponent(u.email)}/delete`} className="btn btn-danger-text">{t("common.delete")}</button> : null}
              <button type="submit" className="btn btn-primary">{t("serverUsers.update")}</button>
            </div>
          </form>
        </details>
      ))}
      <details className="card user-card" open={users.length === 0 || addError !== undefined}>
        <summary className="user-card-head">
          <strong>{t("serverUsers.new")}</strong>
          <span className="user-card-toggle"><span className="when-closed"><Icon path={pencil} size={18} /></span><span className="when-open"><Icon path={close} size={18} /></span></span>
        </summary>
        <form method="post" action={base} className="stack" data-testid="add-server-user">
          <DefaultSubmit label={t("serverUsers.add")} />
          <label className="field">
            <span className="field-label">{t("auth.email")}</span>
            <input type="email" name="email" required defaultValue={typeof addPosted?.email === "string" ? addPosted.email : undefined} {...add.input("email")} />
            {add.message("email")}
          </label>
          <p className="muted small">{t("serverUsers.inviteHint")}</p>
          <PresetButtons grantable={grantable} />
          <FlagSwitches values={addValues} grantable={grantable} idPrefix="server-user-new" />
          <div className="dialog-actions">
            <a className="btn" href={`/server/${serverId}?tab=users`}>{t("common.cancel")}</a>
            <button type="submit" className="btn btn-primary">{t("serverUsers.add")}</button>
          </div>
        </form>
      </details>
    </div>
  );
}

// The error catalogue: every code a client can receive, with its HTTP status.
// The message text lives in locales/en.json under "errors.<code>"; metadata fills its placeholders.

export const ERROR_STATUS = {
  ErrGeneric: 500,
  ErrUnknownError: 500,
  ErrInvalidCredentials: 401,
  ErrServiceNotAvailable: 503,
  ErrEmailNotConfigured: 400,
  ErrInviteNeedsMasterUrl: 400,
  ErrClientLimit: 400,
  ErrTokenInvalid: 400,
  ErrClientNotFound: 404,
  ErrUserNotFound: 404,
  ErrLoginNotPermitted: 403,
  ErrInvalidTokenState: 400,
  ErrSettingNotConfigured: 404,
  ErrNoTemplate: 404,
  ErrServiceInvalidProvider: 400,
  ErrFieldRequired: 400,
  ErrFieldMustBePrintable: 400,
  ErrFieldHasURICharacters: 400,
  ErrFieldIsInvalidHost: 400,
  ErrFieldIsInvalidIP: 400,
  ErrFieldTooLarge: 400,
  ErrFieldTooSmall: 400,
  ErrFieldNotBetween: 400,
  ErrFieldEqual: 400,
  ErrFieldNotEqual: 400,
  ErrFieldNotEmail: 400,
  ErrFieldLength: 400,
  ErrNoPermission: 403,
  /** A file on the server's fileDenylist (an egg's file_denylist): the file manager and SFTP keep off it. */
  ErrFileDenied: 403,
  ErrDatabaseNotAvailable: 503,
  ErrNoNodes: 400,
  ErrNoTemplates: 400,
  ErrPasswordRequirements: 400,
  ErrUsernameRequirements: 400,
  ErrPasswordsNotIdentical: 400,
  ErrSessionTimedOut: 401,
  ErrMissingScope: 403,
  ErrInvalidJson: 400,
  ErrSocketFailed: 502,
  ErrInviteLinkInvalid: 400,
  // A registration that clashes with an account: a refusal like any invalid form (400), never a 500.
  ErrSavingInviteduser: 400,
  ErrDuplicateServerName: 409,
  ErrDuplicateNodeName: 409,
  ErrDirectoryUploadNotSupported: 400,
  ErrDockerNotSupported: 400,
  ErrMissingBinary: 400,
  ErrUnsupportedOS: 400,
  ErrUnsupportedArch: 400,
  // Beyond the codes above, two any HTTP service needs: an unknown route, and a throttled caller.
  ErrNotFound: 404,
  ErrTooManyRequests: 429,
  // An account with that email or username exists (shown to administrators only).
  ErrDuplicateUser: 409,
  // Node errors: an install, pre-start or task step failed (the template's steps or the values
  // given to them, never a fault of the panel: 422, the request understood and its work not
  // possible, with the step and the reason); the server is busy with another power action or an
  // install; a socket message or upload was larger than allowed.
  ErrStepFailed: 422,
  ErrServerBusy: 409,
  // A start, stop or restart that a later power action took the place of (the queue keeps one
  // waiting, daemon/servers/server), or a restart a kill came during: it did not happen, and the
  // server is as the later one left it.
  ErrPowerReplaced: 409,
  ErrMessageTooLarge: 413,
  // A node that still holds servers cannot be deleted.
  ErrNodeHasServers: 409,
  // What answers at a node's address did not prove it holds the node's secret (a wrong address,
  // a wrong secret, or a listener in the node's place): the panel sends it nothing.
  ErrNodeUnverified: 502,
  // An address the node or panel will not connect to on a user's word: loopback (every spelling),
  // unspecified, link-local, multicast, or this machine's own services.
  ErrAddressRefused: 400,
  // Files: a path that leads out of the server's folder; an archive format the node cannot
  // unpack, or one that is damaged or encrypted; an archive larger (unpacked) or with more entries than the node allows; a name taken.
  ErrPathOutside: 403,
  ErrUnsupportedArchive: 400,
  ErrArchiveBroken: 400,
  ErrArchiveTooLarge: 413,
  ErrFileExists: 409,
  // A write that names the version it replaces (If-Match, If-Unmodified-Since: the editor's save)
  // while the file is another version by then: the game, SFTP or another user changed it.
  ErrFileChanged: 412,
  // A folder walked whole (a copy, a zip, a move's checks) holds a name that is not UTF-8 text:
  // no path reaches it, so the walk is refused rather than leave it out without a word.
  ErrNameNotText: 400,
  // The file manager: a folder moved or copied into itself (or below itself); a
  // permission mode that is not three octal digits, or asks for setuid, setgid or sticky.
  ErrMoveIntoItself: 400,
  ErrFileModeInvalid: 400,
  // Tasks: a schedule that is not a cron expression the node understands.
  ErrTaskScheduleInvalid: 400,
  // A task's trigger, cooldown or condition that is not one the node can arm (the field and why
  // in metadata), a console pattern too long or one RE2 cannot run in linear time among them.
  ErrTaskTriggerInvalid: 400,
  // Server variables: a value that is not its variable's type (a whole number, true or
  // false), or a one-line value holding a line break or another control character; a template
  // whose shell or interpreter script has a ${variable} written into its text.
  ErrFieldNotInteger: 400,
  ErrFieldNotBoolean: 400,
  // A request field Kiln does not know in that place (e.g. a permission flag PufferPanel never
  // had): refused and named, with what is accepted there, rather than silently dropped.
  ErrUnknownField: 400,
  ErrFieldHasControlCharacters: 400,
  ErrVariableInScript: 400,
  // A value that would stand where a shell or interpreter reads program text once the command line
  // is put together (split into words by its variable's splitWords, or moved up by an empty word
  // left out): the node refuses to run the line rather than run a value as code.
  ErrValueIsCode: 400,
  // Templates: a template repository that did not answer, or answered with something that is
  // not a repository (the import changes nothing).
  ErrTemplateRepositoryFailed: 502,
  /** An import under an id another template has already (the import dialog offers a free one). */
  ErrTemplateExists: 409,
  // Accounts: the caller lacks permissions the other user holds (a panel scope, or a flag on the
  // server), so may not change or remove them; the last administrator cannot go or lose admin.
  ErrUserHasMorePermissions: 403,
  ErrLastAdmin: 409,
  // An address whose account has not confirmed it names nobody for a share (it is taken, so it
  // cannot be invited either); a confirmation link that is unknown, used or expired.
  ErrEmailUnconfirmed: 409,
  ErrConfirmLinkInvalid: 400,
  ErrBreakGlassAccount: 409,
  // Isolation: the node's config requires a sandbox for server processes (isolation "required")
  // and this node cannot make one (no bubblewrap, no user namespaces), so the server is not started.
  ErrIsolationUnavailable: 503,
  // A server's network (a namespace per server on the node itself): a port its variables name is
  // already published on this node by another server, so it is not started.
  ErrPortTaken: 409,
  // A server sharing the node's network (a host process, the sandbox, docker publishing on the
  // host): another program on the machine holds a port its variables name, so it is not started
  // and the refusal names that program (ErrPortInUse) or says it cannot be named, when it is
  // another user's or hidden from the node (ErrPortInUseUnnamed). The same for a server with a
  // network of its own whose port the node's machine uses (the node's API or SFTP port, or one a
  // program of the machine listens on): published, it would take that program's connections.
  ErrPortInUse: 409,
  ErrPortInUseUnnamed: 409,
  // Allocations: a port already in the node's pool (on the same address, or where either listens
  // on every address); one a server holds (it cannot be removed from the pool or taken by another);
  // none free on the node for what a server needs; a user past the extras their server's limit
  // allows; the primary given back before another is primary; an extra a port variable needs.
  ErrAllocationExists: 409,
  ErrAllocationInUse: 409,
  ErrNoFreeAllocation: 409,
  ErrAllocationLimit: 403,
  ErrAllocationPrimary: 409,
  ErrAllocationRequired: 409,
  // A port variable of a server holding allocations is its allocation's: it changes through them.
  ErrPortFromAllocation: 409,
  // Placement: no node fits the server (metadata.short names the resource: memory, cpu, disk,
  // allocations, tags).
  ErrNoNodeFits: 409,
  // Transfers: another move of the server is under way (or it is switching over and can no longer
  // be cancelled); a move that failed (its node's reason when it gave a catalogue one) or that was
  // cancelled. The server stays on its node as it was in either case.
  ErrTransferInProgress: 409,
  // Evacuating a node that is not draining: placement could send servers back to it meanwhile.
  ErrNodeNotDraining: 409,
  ErrTransferFailed: 502,
  ErrTransferCancelled: 409,
  // The target node's side of a move: a file whose bytes are not those the source's manifest
  // names (another hash, more bytes than declared, or the finished folder's digest differs: the
  // source changed it during the copy, or sent something else); a manifest the target will not
  // act on (a path with "..", absolute, NUL or a backslash, an entry under something that is not
  // a folder, a link leading out, too many entries, a digest that does not match its entries);
  // a source that sent nothing for a minute. Each is the source's fault, as a gateway's would be.
  ErrTransferChecksum: 502,
  ErrTransferManifest: 502,
  ErrTransferStalled: 504,
  // Limits: a write Kiln makes (upload, SFTP, extraction, download, install
  // step) would take the server's folder past its disk space, or the server is over it and may
  // not start. 507 Insufficient Storage says exactly that (413 would blame the request's size,
  // which a start does not have).
  ErrDiskQuotaExceeded: 507,
  // A request's body (an upload) that sent nothing for a while, or too little over a minute: the
  // node ended it and kept nothing of it (daemon/http/paced-body), as a server's 408 says.
  ErrUploadStalled: 408,
  // PufferPanel v3 templates: a network console (telnet, RCON) that does not point at a
  // port on the node's loopback address, where the server's own process listens; a variable users
  // may edit reaching what only the template may decide (the console's address, the docker
  // image's repository, a port binding's address or a privileged port); a template field that is
  // not what the format accepts (the message names the field and what would be accepted).
  ErrConsoleNotLocal: 400,
  ErrUserVariableNotAllowed: 400,
  ErrTemplateFieldInvalid: 400,
  // Eggs: a file that is neither a Kiln or PufferPanel template nor an egg Kiln reads
  // (never stored empty); a value that does not match its variable's pattern rule.
  ErrTemplateUnrecognised: 400,
  ErrFieldPatternMismatch: 400,
  // Backups: restic failed (its reason, without host paths); the server already has
  // its maximum of backups and every one is locked; a locked backup cannot be deleted; a
  // backup made before the node recorded whose files it holds is read back only once an
  // administrator has adopted it.
  ErrBackupFailed: 502,
  ErrBackupLimit: 409,
  ErrBackupLocked: 409,
  ErrBackupUnowned: 409,
  // Two-factor: a TOTP code whose time step was already accepted (the same code again
  // within its window), and a recovery code already spent; a wrong code stays ErrTokenInvalid.
  ErrOtpCodeUsed: 400,
  ErrRecoveryCodeUsed: 400,
  // Passkeys: the account already holds its maximum; removing one makes room.
  ErrPasskeyLimit: 400,
  // Node onboarding: the panel runs from a source checkout that was never built, so it
  // has no kiln executable to hand to a new node.
  ErrNoExecutable: 404,
  // Players: the server is not running, so nobody can be on it; it runs but its
  // template declares no query or the game did not answer one (the reason in metadata).
  ErrServerOffline: 409,
  ErrQueryUnavailable: 503,
  // Minecraft player management: a list file that is not a JSON list of entries or is
  // too large; one that holds more entries than the node reads (metadata: file, max); a player
  // the stopped server's files cannot name (never joined, online mode); the console refused a
  // player command (its answer in metadata) or did not answer it in time; a server whose
  // template is not Minecraft Java (no Minecraft command reaches another game).
  ErrPlayerFileInvalid: 409,
  ErrPlayerListTooLong: 409,
  ErrPlayerUnknown: 404,
  ErrPlayerCommandRefused: 409,
  ErrPlayerCommandTimeout: 504,
  ErrNotMinecraftJava: 409,
  // Single sign-on: the provider's answer was refused (a state used or unknown, a token that fails
  // its checks; the reason in metadata); the provider did not answer; its identity has no account
  // and the provider may not make one; its email is not one the provider verified (and trusted);
  // the identity is linked to another account; unlinking would leave the account no way to log in;
  // a provider with linked accounts would change its issuer or type (its subjects would be another's).
  ErrSsoFailed: 400,
  ErrSsoUnavailable: 502,
  ErrSsoNoAccount: 403,
  ErrSsoEmailUnverified: 403,
  ErrSsoIdentityTaken: 409,
  ErrSsoLastLogin: 409,
  ErrSsoProviderLinked: 409,
  // An account without a password changes how it signs in (two-factor on, a provider linked) only
  // within minutes of a sign-in through its provider that made this login: a session alone does not.
  ErrProviderSignInRequired: 403,
  // A hand edit would change a scope, role or server flag a sign-in rule granted: it is the rule's
  // until an administrator detaches it on the account's page.
  ErrGrantedByRule: 409,
  // SSO-only mode: password logins and registration are off (the break-glass account excepted).
  ErrSsoOnly: 403,
  // Webhooks: a test asked of an endpoint that is turned off (by its owner, or by the panel after
  // repeated failure: its note says why).
  ErrWebhookDisabled: 409,
  // Mods and plugins: a download that sent other bytes than its source's hash names, or more than
  // the size it announced; a download URL that is not on one of the node's file sources; a source
  // (Modrinth, …) that did not answer, answered an error or a shape we do not read, or is turned
  // off; a change while another runs on the same server; an undo of a change that is not the last
  // one; a plan that expired or was made for another server; a server where no platform that
  // takes add-ons was recognised; a project with no version for the server's platform; a file
  // named twice in one change (added and removed, say); a plan that would install add-ons that
  // declare each other incompatible.
  ErrModHashMismatch: 502,
  ErrModTooLarge: 502,
  ErrModSourceNotAllowed: 400,
  ErrModSourceUnavailable: 502,
  ErrModChangeRunning: 409,
  ErrModUndoUnavailable: 409,
  // A switch's undo lays its backup over a day of play at most, and only over the definition the switch made.
  ErrModSwitchUndoExpired: 409,
  ErrModSwitchUndoChanged: 409,
  // The backup it would lay back is gone (deleted, or the server's backups moved to another target).
  ErrModSwitchUndoBackupGone: 409,
  ErrModPlanUnknown: 404,
  ErrModPlatformUnknown: 409,
  ErrModNoCompatibleVersion: 409,
  ErrModFileTwice: 400,
  ErrModPlanBlocked: 409,
  ErrModPackInvalid: 400,
  // A server made from a modpack: no template installs the pack's loader, or the one named runs
  // another; the install before the pack failed; the server the install made runs another loader
  // or Minecraft version than the pack.
  ErrModPackNoTemplate: 409,
  ErrModPackWrongTemplate: 400,
  ErrModPackInstallFailed: 409,
  ErrModPackDoesNotRun: 409,
  // A CurseForge modpack: its file has no server pack (published for game clients only); no
  // template installs CurseForge server packs; the template named does not.
  ErrModPackNoServerPack: 409,
  ErrModPackNoCurseForgeTemplate: 409,
  ErrModPackTemplateNoCurseForge: 400,
  // A version switch on a server whose template does not name the variable that sets its
  // Minecraft version (its addons statement: gameVersion "${version}"), or its loader's own
  // version (loaderVersion "${build}").
  ErrModSwitchUnavailable: 409,
  ErrModLoaderSwitchUnavailable: 409,
  // A pack's file switch on a server whose template installs no CurseForge pack (a curseforge step
  // whose file is a variable).
  ErrModPackSwitchUnavailable: 409,
  ErrModPlatformSwitchUnavailable: 409,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

export type ErrorMetadata = Record<string, string | number | boolean | string[]>;

/** The body every failed call answers with. */
export interface ErrorBody {
  error: { code: ErrorCode; msg: string; metadata?: ErrorMetadata };
}

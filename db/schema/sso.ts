// Single sign-on: the identity providers an administrator added, which account each provider's
// subject is, and the logins in flight (state, nonce and PKCE verifier, each used once).
import { sqliteTable, integer, text, primaryKey, index } from "drizzle-orm/sqlite-core";
import { users } from "./users";

export const authProviders = sqliteTable("auth_providers", {
  /** A slug chosen by the administrator: it is in the login and callback addresses. */
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  type: text("type", { enum: ["oidc", "discord", "github"] }).notNull(),
  /** OpenID Connect issuer (discovery at /.well-known/openid-configuration); null for OAuth2-only types. */
  issuer: text("issuer"),
  clientId: text("client_id").notNull(),
  clientSecret: text("client_secret").notNull(),
  /** Space-separated scopes asked for. */
  scopes: text("scopes").notNull(),
  enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
  /** A first login with no account linked may create one. */
  allowRegistration: integer("allow_registration", { mode: "boolean" }).notNull().default(false),
  /** The provider's email_verified is believed for a new account's email (never for linking to an existing one). */
  trustEmail: integer("trust_email", { mode: "boolean" }).notNull().default(false),
  /** A login whose amr says the provider checked a second factor satisfies the account's two-factor. */
  satisfiesTwoFactor: integer("satisfies_two_factor", { mode: "boolean" }).notNull().default(false),
  /** JSON list of claim rules (core/sso/claim-rules): what the provider's claims grant at each login. */
  rules: text("rules").notNull().default("[]"),
  /** Minutes between refreshes of a linked account's claims with its refresh token; 0: only at each login. */
  refreshMinutes: integer("refresh_minutes").notNull().default(0),
  createdAt: integer("created_at").notNull(),
});

/**
 * What a claim rule granted an account, so the rule can take back exactly that when it stops
 * matching (never a right the account held before the rule gave it). `rule` is the rule's key;
 * `serverId` is "" for a panel scope.
 */
export const ssoGrants = sqliteTable(
  "sso_grants",
  {
    userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    providerId: text("provider_id").notNull().references(() => authProviders.id, { onDelete: "cascade" }),
    rule: text("rule").notNull(),
    kind: text("kind", { enum: ["scope", "flag", "role"] }).notNull(),
    value: text("value").notNull(),
    serverId: text("server_id").notNull().default(""),
  },
  (t) => [primaryKey({ columns: [t.userId, t.providerId, t.rule, t.kind, t.value, t.serverId] })],
);

export const userIdentities = sqliteTable(
  "user_identities",
  {
    providerId: text("provider_id").notNull().references(() => authProviders.id, { onDelete: "cascade" }),
    /** The provider's `sub` (or Discord's/GitHub's user id): stable, unlike an email. */
    subject: text("subject").notNull(),
    userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    /** What the provider said last, for the account page. */
    email: text("email"),
    createdAt: integer("created_at").notNull(),
    lastLoginAt: integer("last_login_at"),
    /** The provider's refresh token, kept only while its provider refreshes claims between logins. */
    refreshToken: text("refresh_token"),
    /** When the claims were last read (a login or a refresh). */
    refreshedAt: integer("refreshed_at"),
  },
  (t) => [primaryKey({ columns: [t.providerId, t.subject] }), index("user_identities_user_idx").on(t.userId)],
);

export const ssoFlows = sqliteTable("sso_flows", {
  /** The `state` sent to the provider: the key the callback finds its flow by, deleted on first use. */
  state: text("state").primaryKey(),
  providerId: text("provider_id").notNull(),
  nonce: text("nonce").notNull(),
  codeVerifier: text("code_verifier").notNull(),
  /** A path on the panel to land on afterwards. */
  next: text("next").notNull(),
  /** Set when a logged-in user links the provider to their account (the account page). */
  linkUserId: integer("link_user_id"),
  /** A provider identity waiting for its existing account's password before it is linked (state is then the link token). */
  pendingSubject: text("pending_subject"),
  pendingUserId: integer("pending_user_id"),
  createdAt: integer("created_at").notNull(),
});

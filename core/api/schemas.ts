// Request bodies of the JSON API as zod schemas: the routes validate with them and the OpenAPI
// document is generated from them, so the two cannot drift apart.
import { z } from "../zod";
import { limitsSchema } from "../definition/limits";

const text = z.string();

/** A refinement whose failure answers with the given catalogue code (see server/validate.ts). */
const kilnRule = <T extends z.ZodMiniType>(schema: T, check: (v: z.infer<T>) => boolean, kiln: string) => schema.check(z.refine(check, { params: { kiln } }));

const HOSTNAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;
const ipv4 = z.ipv4();
const ipv6 = z.ipv6();
/** A valid IP (v4 or v6) or domain name. */
const isHost = (v: string) => ipv4.safeParse(v).success || ipv6.safeParse(v).success || HOSTNAME.test(v);
const host = kilnRule(text.check(z.trim()), isHost, "ErrFieldIsInvalidHost");
const port = z.coerce.number().check(z.int(), z.gte(1), z.lte(65535));
/** A node tag: a word, or key=value ("ssd", "location=eu"). */
const nodeTag = z.string().check(z.trim(), z.regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,31}(=[A-Za-z0-9._-]{1,32})?$/));
/** Printable ASCII without characters that need escaping in a URL. */
const safeName = kilnRule(kilnRule(text.check(z.trim(), z.minLength(1)), (v) => /^[\x20-\x7e]*$/.test(v), "ErrFieldMustBePrintable"), (v) => !/[\/?#%&:@\\"<>|^`{}\[\]]/.test(v), "ErrFieldHasURICharacters");

/** Server names appear in URLs (PUT /api/servers/{id}/name/{name}): no special characters. */
export const serverName = z.pipe(safeName, z.string().check(z.maxLength(64)));
/** A node's name is shown in every list, log line and error that names the node: as short as a server's. */
const nodeName = z.pipe(safeName, z.string().check(z.maxLength(64)));
const variableValue = z.union([z.string(), z.number(), z.boolean()]);
/** A boolean from JSON or from a form checkbox ("on"); anything else is false. */
export const flag = z.pipe(
  z.transform((v: unknown) => v === true || v === "true" || v === "on" || v === "1" || v === 1),
  z.boolean(),
);

/** A modpack a new server is made from: a Modrinth or CurseForge project (id or slug) and optionally one of its versions (a CurseForge file). */
export const modpackChoice = z.strictObject({
  source: z._default(z.enum(["modrinth", "curseforge"]), "modrinth"),
  projectId: text.check(z.regex(/^[A-Za-z0-9_.-]{1,64}$/)),
  versionId: z.optional(text.check(z.regex(/^[A-Za-z0-9_.-]{1,64}$/))),
});

export const API_SCHEMAS = {
  login: z.object({ email: text, password: text }),
  register: z.object({ username: text, email: text, password: text, passwordConfirm: z.optional(text) }),
  otpToken: z.object({ token: text }),
  /** switching two-factor on: a code from the new secret and the account's current password (none for an account without one) */
  otpEnable: z.object({ token: text, password: z.optional(text.check(z.maxLength(1024))) }),
  /** new two-factor recovery codes: the current password, or a current TOTP code */
  recoveryRegenerate: z.object({ password: z.optional(text.check(z.maxLength(1024))), token: z.optional(text.check(z.maxLength(64))) }),
  invite: z.object({ token: text, username: text, password: text, passwordConfirm: z.optional(text) }),
  selfUpdate: z.object({ password: text, username: z.optional(text), email: z.optional(text), newPassword: z.optional(text) }),
  userCreate: z.object({ email: text, username: z.optional(text), password: z.optional(text) }),
  userUpdate: z.object({ username: z.optional(text), email: z.optional(text), password: z.optional(text) }),
  /** "Secure this account": a new password (required when it has none), and whether its OAuth2 clients go too */
  userSecure: z.object({ password: z.optional(text.check(z.maxLength(1024))), deleteClients: z.optional(z.boolean()) }),
  perms: z.object({ scopes: z.array(text) }),
  value: z.object({ value: z.union([text, z.boolean()]) }),
  settingsMap: z.record(text, z.union([text, z.boolean(), z.null()])),
  /** a new client: the account's current password again (a session alone makes none; required by the service, after it refuses a client's token) */
  oauth2Create: z.object({ name: z.optional(text), description: z.optional(text), password: z.optional(text.check(z.maxLength(1024))) }),
  passkeyOptions: z.object({ password: text.check(z.maxLength(1024)) }),
  passkeyRegister: z.object({ name: z.optional(text), response: z.record(text, z.unknown()) }),
  passkeyLogin: z.object({ response: z.record(text, z.unknown()) }),
  node: z.object({
    name: nodeName,
    publicHost: z.union([z.literal("{ip}"), host]),
    publicPort: port,
    privateHost: host,
    privatePort: port,
    sftpPort: port,
    internalHost: z.optional(z.union([host, z.literal(""), z.null()])),
    /** placement's constraints match these ("location=eu", "ssd") */
    tags: z.optional(z.array(nodeTag).check(z.maxLength(20))),
    /** no new servers by placement */
    draining: z.optional(z.boolean()),
  }),
  serverCreate: z.object({
    name: serverName,
    /** a node's id, or "auto": placement picks the node that fits best now (services/placement) */
    node: z.union([z.literal("auto"), z.coerce.number().check(z.int(), z.gte(1))]),
    /** with node "auto": tags the chosen node must carry, every one */
    constraints: z.optional(z.array(nodeTag).check(z.maxLength(20))),
    /** allocations of the node's pool to take (the first is the primary); else free ones are assigned */
    allocations: z.optional(z.array(z.number().check(z.int(), z.gte(1))).check(z.maxLength(20))),
    /** the template's id; with `modpack` it may be left out (the first template that runs the pack's loader) */
    template: z.optional(text.check(z.minLength(1))),
    /** one entry of the template's supportedEnvironments, e.g. { "type": "standard" } */
    environment: z.optional(z.looseObject({ type: text })),
    /** the owner's email; the caller when left out */
    user: z.optional(text),
    variables: z._default(z.record(text, variableValue), {}),
    autostart: flag,
    autorestart: flag,
    autorecover: flag,
    /** resource limits (administrators only; 0 or absent: none) */
    limits: z.optional(limitsSchema),
    /** a Modrinth modpack laid over the server once its install has finished, or a CurseForge server pack its template's install installs (its newest release when no versionId) */
    modpack: z.optional(modpackChoice),
  }),
  /** A user's access to one server: its per-server permission flags, coerced to booleans. */
  serverUser: z.looseObject({ email: z.optional(text) }),
} as const;

export type ApiSchemaName = keyof typeof API_SCHEMAS;

// Request bodies of the JSON API as zod schemas: the routes validate with them and the OpenAPI
// document is generated from them, so the two cannot drift apart.
import { z } from "zod";
import { limitsSchema } from "../definition/limits";

const text = z.string();

/** A refinement whose failure answers with the given catalogue code (see server/validate.ts). */
const kilnRule = <T extends z.ZodType>(schema: T, check: (v: z.infer<T>) => boolean, kiln: string) => schema.refine(check, { params: { kiln } });

const HOSTNAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;
/** A valid IP (v4 or v6) or domain name (spec: server-side field rules). */
const isHost = (v: string) => z.ipv4().safeParse(v).success || z.ipv6().safeParse(v).success || HOSTNAME.test(v);
const host = kilnRule(text.trim(), isHost, "ErrFieldIsInvalidHost");
const port = z.coerce.number().int().min(1).max(65535);
/** Printable ASCII without characters that need escaping in a URL. */
const safeName = kilnRule(kilnRule(text.trim().min(1), (v) => /^[\x20-\x7e]*$/.test(v), "ErrFieldMustBePrintable"), (v) => !/[\/?#%&:@\\"<>|^`{}\[\]]/.test(v), "ErrFieldHasURICharacters");

/** Server names appear in URLs (PUT /api/servers/{id}/name/{name}): no special characters. */
export const serverName = safeName.pipe(z.string().max(64));
const variableValue = z.union([z.string(), z.number(), z.boolean()]);
/** A boolean from JSON or from a form checkbox ("on"); anything else is false. */
export const flag = z.preprocess((v) => v === true || v === "true" || v === "on" || v === "1" || v === 1, z.boolean());

export const API_SCHEMAS = {
  login: z.object({ email: text, password: text }),
  register: z.object({ username: text, email: text, password: text, passwordConfirm: text.optional() }),
  otpToken: z.object({ token: text }),
  /** new two-factor recovery codes: the current password, or a current TOTP code */
  recoveryRegenerate: z.object({ password: text.max(1024).optional(), token: text.max(64).optional() }),
  invite: z.object({ token: text, username: text, password: text, passwordConfirm: text.optional() }),
  selfUpdate: z.object({ password: text, username: text.optional(), email: text.optional(), newPassword: text.optional() }),
  userCreate: z.object({ email: text, username: text.optional(), password: text.optional() }),
  userUpdate: z.object({ username: text.optional(), email: text.optional(), password: text.optional() }),
  perms: z.object({ scopes: z.array(text) }),
  value: z.object({ value: z.union([text, z.boolean()]) }),
  settingsMap: z.record(text, z.union([text, z.boolean(), z.null()])),
  oauth2Create: z.object({ name: text.optional(), description: text.optional() }),
  passkeyRegister: z.object({ name: text.optional(), response: z.record(text, z.unknown()) }),
  passkeyLogin: z.object({ response: z.record(text, z.unknown()) }),
  node: z.object({
    name: safeName,
    publicHost: z.union([z.literal("{ip}"), host]),
    publicPort: port,
    privateHost: host,
    privatePort: port,
    sftpPort: port,
    internalHost: z.union([host, z.literal(""), z.null()]).optional(),
  }),
  serverCreate: z.object({
    name: serverName,
    node: z.coerce.number().int().min(1),
    template: text.min(1),
    /** one entry of the template's supportedEnvironments, e.g. { "type": "standard" } */
    environment: z.looseObject({ type: text }).optional(),
    /** the owner's email; the caller when left out */
    user: text.optional(),
    variables: z.record(text, variableValue).default({}),
    autostart: flag,
    autorestart: flag,
    autorecover: flag,
    /** resource limits (administrators only; 0 or absent: none) */
    limits: limitsSchema.optional(),
  }),
  /** A user's access to one server: the flags of spec section 3, coerced to booleans. */
  serverUser: z.looseObject({ email: text.optional() }),
} as const;

export type ApiSchemaName = keyof typeof API_SCHEMAS;

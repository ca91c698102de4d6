// Request bodies of the JSON API as zod schemas: the routes validate with them and the OpenAPI
// document is generated from them, so the two cannot drift apart.
import { z } from "zod";

const text = z.string();

export const API_SCHEMAS = {
  login: z.object({ email: text, password: text }),
  register: z.object({ username: text, email: text, password: text, passwordConfirm: text.optional() }),
  otpToken: z.object({ token: text }),
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
} as const;

export type ApiSchemaName = keyof typeof API_SCHEMAS;

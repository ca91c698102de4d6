// How a template's server is asked who plays (`query: { type, port? }`): `minecraft` (Java's
// Server List Ping, then the legacy ping), `minecraft-query` (the UDP query protocol, which
// lists names), `bedrock`, or a game id GameDig knows (valve, quake3, terraria, …; the node
// answers unknownType for one it does not). PufferPanel v3 writes the same field with type
// minecraft. `port` is a number or a text naming variables (${queryPort}); without it the
// server's game port.
import { z } from "../zod";

/** Kiln's own query types; any other type is a GameDig game id. */
export const OWN_QUERY_TYPES = ["minecraft", "minecraft-query", "bedrock"] as const;

export const querySchema = z.looseObject({
  type: z.string({ error: "expected a query type: minecraft, minecraft-query, bedrock or a GameDig game id" }).check(
    z.regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, { error: "expected a query type: minecraft, minecraft-query, bedrock or a GameDig game id" }),
  ),
  port: z.optional(
    z.union([z.number().check(z.int(), z.gte(1), z.lte(65535)), z.string().check(z.minLength(1), z.maxLength(200))], { error: "expected a port number or a text naming a variable such as ${queryPort}" }),
  ),
});

export type QueryConfig = z.infer<typeof querySchema>;

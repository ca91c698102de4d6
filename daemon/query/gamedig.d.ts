// The part of GameDig 5's surface the node uses (it ships no types).
declare module "gamedig" {
  export interface QueryOptions {
    type: string;
    host: string;
    port?: number;
    givenPortOnly?: boolean;
    maxRetries?: number;
    socketTimeout?: number;
    attemptTimeout?: number;
    /** Kiln's own: carried to the protocol as options.kiln (./gamedig-bounds). */
    kiln?: object;
  }
  export interface QueryResult {
    name?: string;
    map?: string;
    version?: string;
    numplayers?: number;
    maxplayers?: number;
    players?: Array<{ name?: string; raw?: unknown }>;
    bots?: Array<{ name?: string; raw?: unknown }>;
    ping?: number;
  }
  export const GameDig: { query(options: QueryOptions): Promise<QueryResult> };
  export const games: Record<string, unknown>;
  export const protocols: Record<string, unknown>;
}

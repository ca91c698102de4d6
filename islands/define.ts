// An island is a component hydrated in the browser. Its definition says which message keys it
// needs there (only those cross the wire) and when to hydrate.
import type { ComponentType } from "react";

export type HydrateWhen = "load" | "idle" | "interaction";

export interface IslandDef<P extends object> {
  name: string;
  component: ComponentType<P>;
  /** Message key prefixes the island uses; the browser gets exactly these. */
  messages: readonly string[];
  hydrate: HydrateWhen;
}

export function defineIsland<P extends object>(def: IslandDef<P>): IslandDef<P> {
  return def;
}

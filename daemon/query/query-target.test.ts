// Where a server is queried: the declared port with its variables filled in, else the game port.
import { describe, expect, test } from "bun:test";
import { templateSchema } from "../../core/definition";
import { queryPlan } from "./query-target";

const base = { display: "x", run: { command: "x" } };

describe("queryPlan", () => {
  test("the port asked: the declared one with variables filled in, else the game port", () => {
    const def = (query: unknown, data: Record<string, unknown>) => templateSchema.parse({ ...base, query, data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, { value: v }])) });
    expect(queryPlan(def({ type: "minecraft" }, { rconport: 25575, port: 25565 }), { rconport: 25575, port: 25565 })).toEqual({ type: "minecraft", port: 25565 });
    expect(queryPlan(def({ type: "minecraft-query", port: "${qp}" }, { qp: 25566 }), { qp: 25566 })).toEqual({ type: "minecraft-query", port: 25566 });
    expect(queryPlan(def({ type: "valve" }, { queryPort: 27016, gamePort: 27015 }), { queryPort: 27016, gamePort: 27015 })).toEqual({ type: "valve", port: 27015 });
    expect(queryPlan(def({ type: "valve", port: "${missing}" }, {}), {})).toEqual({ type: "valve", port: null });
    expect(queryPlan(def(undefined, { port: 1 }), { port: 1 })).toBeNull();
  });
});

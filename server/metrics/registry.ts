// Gauges other parts of the panel add to /metrics without this module knowing them (the webhook
// worker's queue depth): a name, a help sentence and a function read at each scrape. One registry
// per process, as a panel is one per process; a name is taken once.
import { METRIC_NAME } from "./exposition";

export interface RegisteredGauge {
  name: string;
  help: string;
  read: () => number | Promise<number>;
}

const gauges = new Map<string, RegisteredGauge>();

/**
 * Adds a gauge to /metrics: `name` must start with `kiln_` and be a valid metric name not taken
 * yet; `read` is called at each scrape (keep it cheap: a field or one indexed count). Returns the function
 * that takes it away again.
 */
export function registerGauge(name: string, help: string, read: () => number | Promise<number>): () => void {
  if (!METRIC_NAME.test(name) || !name.startsWith("kiln_")) throw new Error(`metrics: ${JSON.stringify(name)} is not a kiln_ metric name`);
  if (gauges.has(name)) throw new Error(`metrics: ${name} is registered already`);
  if (/[\n\\"]/.test(help)) throw new Error(`metrics: the help of ${name} must be one plain line`);
  const gauge = { name, help, read };
  gauges.set(name, gauge);
  return () => {
    if (gauges.get(name) === gauge) gauges.delete(name);
  };
}

/** Every registered gauge with its value now; one whose read throws or gives no finite number is left out. */
export async function registeredGauges(): Promise<{ name: string; help: string; value: number }[]> {
  const out: { name: string; help: string; value: number }[] = [];
  for (const { name, help, read } of gauges.values()) {
    let value: number;
    try {
      value = await read();
    } catch (error) {
      // A fault of the part that registered it: said, and the rest of the page still served.
      console.error(`kiln: metrics: reading ${name} failed: ${(error as Error)?.message ?? String(error)}`);
      continue;
    }
    if (typeof value === "number" && Number.isFinite(value)) out.push({ name, help, value });
  }
  return out;
}

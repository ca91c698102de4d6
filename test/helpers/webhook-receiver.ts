// A local HTTP receiver for webhook deliveries: it keeps every request (headers and body), answers
// with the statuses it is told to in turn (then 200), and checks signatures as a receiver would.
import { createHmac, timingSafeEqual } from "node:crypto";

export interface Received {
  headers: Record<string, string>;
  body: string;
  at: number;
}

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** Statuses to answer with before answering 200. */
  failWith(...statuses: number[]): void;
  stop(): void;
}

export function startReceiver(): Receiver {
  const received: Received[] = [];
  const queue: number[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      received.push({ headers: Object.fromEntries(request.headers), body: await request.text(), at: Date.now() });
      const status = queue.shift() ?? 200;
      return new Response(status === 200 ? "thanks" : "not now", { status });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}/hook`,
    port: server.port!,
    received,
    failWith: (...statuses) => void queue.push(...statuses),
    stop: () => server.stop(true),
  };
}

/** The check a receiver makes, as docs/webhooks.md shows it: HMAC-SHA256 over "timestamp.body", compared in constant time. */
export function signatureValid(secret: string, delivery: Received, now = Date.now(), windowSeconds = 300): boolean {
  const timestamp = Number(delivery.headers["kiln-timestamp"]);
  if (!Number.isInteger(timestamp) || Math.abs(now / 1000 - timestamp) > windowSeconds) return false;
  const expected = Buffer.from(`sha256=${createHmac("sha256", secret).update(`${timestamp}.${delivery.body}`).digest("hex")}`);
  const given = Buffer.from(delivery.headers["kiln-signature"] ?? "");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

// The answer to a socket's `replay {since}`: the console text written since then, as one `console`
// frame. It may be the whole buffer (4 MiB of text, tens of thousands of entries), which takes the
// node's only thread milliseconds to encode and is megabytes on its way out; so besides each
// socket's own budget (core/live/guard), the node encodes at most REPLAY_SERVER_BUDGET characters
// per server and REPLAY_NODE_BUDGET in all, and replays of the whole buffer while it has not
// changed share one encoding. Past a budget the replay is refused (ErrTooManyRequests) and
// nothing is sent; a shared encoding costs no budget. Both are kept per buffer, which lives as
// long as its server: nothing to forget when a server goes, nothing reset by reconnecting.
import { KilnError } from "../../core/errors";
import { TokenBucket } from "../../core/live/token-bucket";
import type { ConsoleBuffer } from "../servers/console-buffer";
import { REPLAY_FRAME_KEEP_MS, REPLAY_NODE_BUDGET, REPLAY_SERVER_BUDGET } from "./limits";

/** A whole buffer's frame, as of one version of that buffer. */
interface Kept {
  version: number;
  frame: string;
}

export class ConsoleReplays {
  private readonly node = new TokenBucket(REPLAY_NODE_BUDGET.rate, REPLAY_NODE_BUDGET.burst);
  private readonly servers = new WeakMap<ConsoleBuffer, TokenBucket>();
  private readonly kept = new WeakMap<ConsoleBuffer, Kept>();

  /** The frame answering a replay of `buffer` from `since` (epoch milliseconds); throws ErrTooManyRequests past a budget. */
  frame(buffer: ConsoleBuffer, since: number): string {
    const { logs, epoch } = buffer.since(since);
    const whole = logs.length === buffer.count;
    const kept = this.kept.get(buffer);
    // Its epoch is when it was made: nothing was written since, so asking on from there misses nothing.
    if (whole && kept?.version === buffer.version) return kept.frame;
    this.charge(buffer, logs);
    const frame = JSON.stringify({ type: "console", data: { logs, epoch } });
    if (whole) this.keep(buffer, frame);
    return frame;
  }

  /**
   * Counts `logs` of `buffer` against the budgets, or throws ErrTooManyRequests and counts nothing.
   * A read of the console over HTTP (GET …/console) is charged here too: it encodes the same text.
   */
  charge(buffer: ConsoleBuffer, logs: readonly string[]): void {
    let cost = 0;
    for (const text of logs) cost += text.length;
    const server = this.servers.get(buffer) ?? new TokenBucket(REPLAY_SERVER_BUDGET.rate, REPLAY_SERVER_BUDGET.burst);
    this.servers.set(buffer, server);
    if (!server.has(cost) || !this.node.has(cost)) throw new KilnError("ErrTooManyRequests");
    server.take(cost);
    this.node.take(cost);
  }

  /** Kept a little while only: a frame is as large as its buffer, and most are not replayed twice. */
  private keep(buffer: ConsoleBuffer, frame: string): void {
    const kept: Kept = { version: buffer.version, frame };
    this.kept.set(buffer, kept);
    const timer = setTimeout(() => this.kept.get(buffer) === kept && this.kept.delete(buffer), REPLAY_FRAME_KEEP_MS);
    timer.unref?.();
  }
}

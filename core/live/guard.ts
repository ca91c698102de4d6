// The checks every client message of a live socket passes before anyone acts on it: size, rate,
// JSON and type, a replay's own budget, then the refusal count. The node's channel and the
// panel's proxy both keep one per socket, so the rules hold whether a client reaches the node
// directly or through the panel.
import { KilnError } from "../errors";
import { CLIENT_MESSAGES, type ClientMessageType } from "./index";
import { TokenBucket } from "./token-bucket";
import { POWER_ACTIONS } from "../contract/power-actions";
import { ACTION_RATE, MAX_BUFFERED_BYTES, MAX_MESSAGE_BYTES, MAX_REFUSALS, MESSAGE_RATE, REPLAY_RATE } from "./limits";

/** A client message as read: its fields beside `type` (see CLIENT_MESSAGES). */
export type ClientMessage = { type: ClientMessageType } & Record<string, unknown>;

/** Messages that make the server do something: rate-limited more tightly than questions. */
const ACTIONS = new Set<ClientMessageType>([...POWER_ACTIONS, "console"]);

export class SocketGuard {
  private readonly messages = new TokenBucket(MESSAGE_RATE.rate, MESSAGE_RATE.burst);
  private readonly actions = new TokenBucket(ACTION_RATE.rate, ACTION_RATE.burst);
  private readonly replays = new TokenBucket(REPLAY_RATE.rate, REPLAY_RATE.burst);
  private refusals = 0;

  /**
   * The message with its fields beside `type`, or a KilnError thrown to refuse it
   * (ErrMessageTooLarge, ErrTooManyRequests, ErrInvalidJson). Whoever checks a message and
   * whoever acts on it read this one form (the panel's proxy passes it on as read), so the two
   * can never see different fields in one message. `buffered` is what the socket holds unsent
   * to the client now: a replay, megabytes perhaps, is not piled on top of a backlog.
   */
  read(raw: string | Buffer, buffered = 0): ClientMessage {
    if (raw.length > MAX_MESSAGE_BYTES) throw new KilnError("ErrMessageTooLarge", { max: MAX_MESSAGE_BYTES });
    if (!this.messages.take()) throw new KilnError("ErrTooManyRequests");
    let parsed: unknown;
    try {
      parsed = JSON.parse(String(raw));
    } catch {
      throw new KilnError("ErrInvalidJson");
    }
    const message = flatten(parsed);
    if (!message) throw new KilnError("ErrInvalidJson", { type: String((parsed as { type?: unknown } | null)?.type) });
    if (ACTIONS.has(message.type) && !this.actions.take()) throw new KilnError("ErrTooManyRequests");
    if (message.type === "replay" && (buffered > MAX_BUFFERED_BYTES || !this.replays.take())) throw new KilnError("ErrTooManyRequests");
    return message;
  }

  /** A message went through: the refusals in a row start again from zero. */
  accepted(): void {
    this.refusals = 0;
  }

  /** Counts a refusal; true when the client has been refused MAX_REFUSALS times in a row and must be disconnected. */
  refused(): boolean {
    return ++this.refusals >= MAX_REFUSALS;
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * `{type, ...fields}` from either form a client may send: fields beside `type` (as PufferPanel
 * writes them) or inside `data` (Kiln's earlier form, still read so an open page from
 * before an upgrade keeps working). A field given both ways takes the value beside `type`.
 * Null when it is no client message at all.
 */
function flatten(parsed: unknown): ClientMessage | null {
  if (!isRecord(parsed) || !CLIENT_MESSAGES.includes(parsed.type as ClientMessageType)) return null;
  const { data, ...beside } = parsed;
  return { ...(isRecord(data) ? data : {}), ...beside } as ClientMessage;
}

// The checks every client message of a live socket passes before anyone acts on it: size, rate,
// JSON and type, then the refusal count. The node's channel and the panel's proxy both keep one
// per socket, so the rules hold whether a client reaches the node directly or through the panel.
import { KilnError } from "../errors";
import { CLIENT_MESSAGES, type ClientMessageType, type LiveMessage } from "./index";
import { TokenBucket } from "./token-bucket";
import { ACTION_RATE, MAX_MESSAGE_BYTES, MAX_REFUSALS, MESSAGE_RATE } from "./limits";

export type ClientMessage = LiveMessage<ClientMessageType, Record<string, unknown>>;

/** Messages that make the server do something: rate-limited more tightly than questions. */
const ACTIONS = new Set<ClientMessageType>(["start", "stop", "kill", "restart", "install", "console"]);

export class SocketGuard {
  private readonly messages = new TokenBucket(MESSAGE_RATE.rate, MESSAGE_RATE.burst);
  private readonly actions = new TokenBucket(ACTION_RATE.rate, ACTION_RATE.burst);
  private refusals = 0;

  /** The message, or a KilnError thrown to refuse it (ErrMessageTooLarge, ErrTooManyRequests, ErrInvalidJson). */
  read(raw: string | Buffer): ClientMessage {
    if (raw.length > MAX_MESSAGE_BYTES) throw new KilnError("ErrMessageTooLarge", { max: MAX_MESSAGE_BYTES });
    if (!this.messages.take()) throw new KilnError("ErrTooManyRequests");
    let message: ClientMessage;
    try {
      message = JSON.parse(String(raw));
    } catch {
      throw new KilnError("ErrInvalidJson");
    }
    if (!message || !CLIENT_MESSAGES.includes(message.type)) throw new KilnError("ErrInvalidJson", { type: String(message?.type) });
    if (ACTIONS.has(message.type) && !this.actions.take()) throw new KilnError("ErrTooManyRequests");
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

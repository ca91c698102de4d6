// The client side of the live socket, shared by the console
// island and the panel: queues messages sent before the socket is open, reconnects after an
// unrequested close up to RECONNECT_ATTEMPTS consecutive failures (500 ms + 500 ms per failed
// attempt, the count reset after 30 s of staying open), then reports the failure. A close that
// says the login ended or the access was taken away (CLOSE_SESSION_ENDED, CLOSE_ACCESS_REVOKED)
// is reported at once: knocking again would only be refused.
import { CLOSE_ACCESS_REVOKED, CLOSE_SESSION_ENDED, type LiveMessage, type LiveRefusal } from "./index";

export const RECONNECT_ATTEMPTS = 5;
export const RECONNECT_BASE_MS = 500;
export const RECONNECT_STEP_MS = 500;
export const RECONNECT_RESET_MS = 30_000;

export type LiveState = "connecting" | "open" | "closed";

export interface LiveClientOptions {
  /** Opens a new socket (the browser passes a URL; tests and the panel may add headers). */
  connect: () => WebSocket;
  /** A pushed `{type, data}`, or the refusal of a message this client sent (`{error}`, no type). */
  onMessage: (message: LiveMessage<string, any> | LiveRefusal) => void;
  onState?: (state: LiveState) => void;
  /** Called once when reconnecting has given up (ErrSocketFailed in the UI), or with the revocation's close code. */
  onFailed?: (revokedBy?: number) => void;
}

export class LiveClient {
  private ws: WebSocket | null = null;
  private queue: string[] = [];
  private failures = 0;
  private closedByUs = false;
  private resetTimer: ReturnType<typeof setTimeout> | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  state: LiveState = "closed";

  constructor(private readonly options: LiveClientOptions) {
    this.open();
  }

  /** Sends `{type, ...fields}` (fields beside the type, see CLIENT_MESSAGES) now when open, else when the socket next opens. */
  send(type: string, fields?: Record<string, unknown>): void {
    const text = JSON.stringify({ ...fields, type });
    if (this.ws && this.state === "open") this.ws.send(text);
    else this.queue.push(text);
  }

  close(): void {
    this.closedByUs = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.resetTimer) clearTimeout(this.resetTimer);
    this.ws?.close();
    this.setState("closed");
  }

  private open(): void {
    this.setState("connecting");
    const ws = this.options.connect();
    this.ws = ws;
    ws.onopen = () => {
      this.setState("open");
      for (const text of this.queue.splice(0)) ws.send(text);
      // Only a connection that stays up for a while forgives earlier failures.
      this.resetTimer = setTimeout(() => (this.failures = 0), RECONNECT_RESET_MS);
    };
    ws.onmessage = (event) => {
      try {
        this.options.onMessage(JSON.parse(String(event.data)));
      } catch {
        // a frame that is not JSON is not ours to act on
      }
    };
    ws.onclose = (event) => {
      if (this.resetTimer) clearTimeout(this.resetTimer);
      if (this.ws !== ws || this.closedByUs) return;
      this.setState("closed");
      if (event.code === CLOSE_SESSION_ENDED || event.code === CLOSE_ACCESS_REVOKED) {
        this.options.onFailed?.(event.code);
        return;
      }
      this.failures++;
      if (this.failures > RECONNECT_ATTEMPTS) {
        this.options.onFailed?.();
        return;
      }
      this.retryTimer = setTimeout(() => this.open(), RECONNECT_BASE_MS + RECONNECT_STEP_MS * (this.failures - 1));
    };
  }

  private setState(state: LiveState): void {
    if (this.state === state) return;
    this.state = state;
    this.options.onState?.(state);
  }
}

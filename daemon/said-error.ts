// An error whose reason the daemon says on a server's console as a message (so each reader sees
// it in their language); its `message` is the English text, for the node's log.
import { english } from "../locales/english";
import { renderMessage, type DaemonMessage } from "../core/live/daemon-message";

export class SaidError extends Error {
  constructor(readonly said: DaemonMessage) {
    super(renderMessage(said, english));
  }
}

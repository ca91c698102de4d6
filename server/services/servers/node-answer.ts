// Reading a node's answer: its catalogue errors pass through as they are; anything else from the
// node is "not available". A code that speaks of the caller's own sign-in (a 401: the browser
// would sign its user out) is never the node's to say: it is "not available" too.
import { ERROR_STATUS, KilnError, type ErrorCode, type ErrorMetadata } from "../../../core/errors";

export async function expectOk(response: Response, nodeName: string): Promise<void> {
  if (response.ok) return;
  const body = (await response.json().catch(() => null)) as { error?: { code?: string; metadata?: ErrorMetadata; msg?: string } } | null;
  const code = body?.error?.code;
  if (code && Object.hasOwn(ERROR_STATUS, code) && ERROR_STATUS[code as ErrorCode] !== 401) throw new KilnError(code as ErrorCode, body?.error?.metadata, body?.error?.msg);
  throw new KilnError("ErrServiceNotAvailable", { node: nodeName });
}

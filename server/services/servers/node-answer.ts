// Reading a node's answer: its catalogue errors pass through as they are; anything else from the
// node is "not available".
import { ERROR_STATUS, KilnError, type ErrorCode, type ErrorMetadata } from "../../../core/errors";

export async function expectOk(response: Response, nodeName: string): Promise<void> {
  if (response.ok) return;
  const body = (await response.json().catch(() => null)) as { error?: { code?: string; metadata?: ErrorMetadata; msg?: string } } | null;
  const code = body?.error?.code;
  if (code && code in ERROR_STATUS) throw new KilnError(code as ErrorCode, body?.error?.metadata, body?.error?.msg);
  throw new KilnError("ErrServiceNotAvailable", { node: nodeName });
}

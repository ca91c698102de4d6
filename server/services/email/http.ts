// POSTs to an email provider's HTTP API; any failure to get a 2xx answer becomes ErrServiceNotAvailable.
import { emailUnavailable } from "./unavailable";

// A hung provider must not hold the request that triggered the email forever.
const TIMEOUT_MS = 30_000;

/** Base URLs come from deps (tests point them at a local server); tolerate a trailing slash there. */
export function endpoint(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, "")}${path}`;
}

export function basicAuth(user: string, password: string): string {
  // Buffer rather than btoa: btoa throws on characters outside Latin-1.
  return `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
}

export async function postToProvider(provider: string, url: string, init: { headers: Record<string, string>; body: string }): Promise<void> {
  let response: Response;
  try {
    response = await fetch(url, { method: "POST", headers: init.headers, body: init.body, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (cause) {
    throw emailUnavailable(provider, cause);
  }
  if (!response.ok) {
    // The provider's answer explains the rejection (bad key, unverified domain); cap it so a page of HTML does not flood the log.
    const detail = (await response.text().catch(() => "")).slice(0, 500);
    throw emailUnavailable(provider, `HTTP ${response.status} ${detail}`.trim());
  }
}

// On a cloud development environment host, every request gets the warning page.
// Only the stylesheet and icon the warning page itself uses are served, so it is readable.
import type { Context } from "hono";
import { isCloudIdeHost } from "../../core/net/cloud-ide";
import { memoByText } from "../../core/memo";

/** Whether a Host names a cloud IDE's preview, judged once per distinct Host (a panel sees a few). */
const cloudIdeHost = memoByText(isCloudIdeHost);

/** Whether this request is answered with the warning page rather than what it asked for. */
export function getsCloudIdeWarning(c: Context): boolean {
  const host = c.req.header("x-forwarded-host") ?? c.req.header("host") ?? new URL(c.req.url).host;
  if (!cloudIdeHost(host)) return false;
  const isWarningAsset = c.req.method === "GET" && (/^\/assets\/[\w-]+\.css$/.test(c.req.path) || c.req.path === "/static/favicon.svg");
  return !isWarningAsset;
}

// State-changing requests carried by a session cookie alone (ours, or PufferPanel's puffer_auth)
// must come from the panel's own pages, whatever their method (./changes-state says which
// change). Bearer-authenticated API clients are not browsers and are not subject to this (a page
// of another site cannot set an Authorization header without a CORS preflight, which the panel
// never grants); a request is one only when its bearer token is the credential it is judged by
// (./authenticate decides), not whenever its header begins with "Bearer". Whether a request comes
// from our pages is decided in ./origin, the same decision the live socket uses.
import type { Context } from "hono";
import { KilnError } from "../../core/errors";
import { isSameOrigin } from "./origin";
import { changesState, SAFE_METHODS } from "./changes-state";
import { requestCredential } from "./authenticate";

/** Throws the catalogue's refusal when a state-changing request did not come from the panel's pages. */
export function checkSameOrigin(c: Context, trustProxy: boolean): void {
  // Whether it changes state first: most requests are reads, and they need no credential read again.
  if (!changesState(c) || requestCredential(c)?.via === "bearer") return;
  const fetchSite = c.req.header("sec-fetch-site");
  const origin = c.req.header("origin");
  if (SAFE_METHODS.has(c.req.method)) {
    // A GET is what a link, an image or a page opened from a mail client sends: no Origin, and
    // Sec-Fetch-Site "none" or nothing at all from an older browser. None of that proves our
    // page sent it, so a GET that changes state must bring the proof: our page's fetch says
    // same-origin, or (a browser without fetch metadata) names an Origin, checked below.
    const proven = fetchSite === "same-origin" || (fetchSite === undefined && origin !== undefined);
    if (!proven) throw new KilnError("ErrNoPermission", { reason: "cross-site" });
  }
  // Other methods: browsers send Origin with every cross-origin one, so a missing Origin is a
  // program. "none" is the user's own doing (typed address, bookmark); anything else but
  // same-origin is another site.
  else if (fetchSite && fetchSite !== "same-origin" && fetchSite !== "none") throw new KilnError("ErrNoPermission", { reason: "cross-site" });
  if (!isSameOrigin(c, trustProxy)) throw new KilnError("ErrNoPermission", { reason: "cross-origin" });
}

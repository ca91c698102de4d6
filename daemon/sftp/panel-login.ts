// Asks the panel whether an SFTP login may in: the node knows nothing of accounts. The call
// carries a token signed with the node secret, so the panel answers only for this node's
// servers. No answer, or any answer but yes, refuses the login. The answer also says whether the
// user may change files (putServerFiles); without a clear yes the session is read-only. And whether
// the login is the server's owner's or an administrator's: the node keeps places for those.
import { PANEL_CALLS } from "../../core/contract/panel-calls";
import { panelAuthorization, type NodeCredentials } from "../http/node-auth";

/** The panel's route for it (server/routes/sftp-auth.ts). */
/** Long enough for the panel's login throttle (up to 4 s) and a password hash. */
export const LOGIN_CHECK_TIMEOUT_MS = 15_000;

export interface SftpLogin {
  userId: number;
  email: string;
  /** Write, rename, remove, make folders and links, change modes; else the session only reads. */
  canWrite: boolean;
  /** The server's owner or an administrator, who may take its kept connection places (./server). */
  owners: boolean;
}

export interface LoginRequest {
  username: string;
  password: string;
  /** The client's IP address, for the panel's per-address throttle. */
  address: string;
}

export type LoginCheck = (request: LoginRequest) => Promise<SftpLogin | null>;

export function panelLoginCheck(panelUrl: string, credentials: NodeCredentials, log: (line: string) => void): LoginCheck {
  const url = new URL(PANEL_CALLS.sftpAuth, panelUrl).toString();
  return async (request) => {
    let response: Response;
    try {
      response = await fetch(url, {
        method: "POST",
        headers: { authorization: panelAuthorization(credentials, "POST", url), "content-type": "application/json" },
        body: JSON.stringify(request),
        signal: AbortSignal.timeout(LOGIN_CHECK_TIMEOUT_MS),
      });
    } catch (error) {
      log(`kiln daemon: SFTP login refused: the panel at ${panelUrl} does not answer (${(error as Error).message})`);
      return null;
    }
    const body = (await response.json().catch(() => null)) as { userId?: unknown; email?: unknown; canWrite?: unknown; owners?: unknown; error?: { code?: unknown; metadata?: { reason?: string } } } | null;
    if (response.ok && typeof body?.userId === "number" && typeof body.email === "string") return { userId: body.userId, email: body.email, canWrite: body.canWrite === true, owners: body.owners === true };
    if (body?.error?.metadata?.reason === "node-token") log(`kiln daemon: the panel at ${panelUrl} refused this node's token: check the node secret`);
    // A wrong password is the client's business; any other refusal (the throttle, a server the
    // panel does not place here, a fault) is said, so an operator can tell why a login failed.
    else if (body?.error?.code !== "ErrInvalidCredentials") log(`kiln daemon: SFTP login refused: the panel answered ${response.status}${typeof body?.error?.code === "string" ? ` ${body.error.code.slice(0, 64)}` : ""}`);
    return null;
  };
}

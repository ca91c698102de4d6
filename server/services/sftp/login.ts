// The panel's half of an SFTP login (the node asks, see daemon/sftp/panel-login.ts): the node
// must prove it holds the server, then the account's password is checked like a panel login
// (same throttle, per account and per address), then the sftpServer flag or the admin scope.
// Two-factor does not apply: SFTP clients have no way to ask for a code.
import type { Db } from "../../../db";
import { KilnError } from "../../../core/errors";
import { callingNodes, nodeHoldsServer } from "../nodes/caller";
import { parseSftpUsername } from "../../../core/sftp/username";
import { checkCredentials } from "../auth/credentials";
import { throttleKeys, type LoginThrottle } from "../auth/throttle";
import { serverAccess } from "../servers/permissions";
import { getUser, scopesOf } from "../users";

export interface SftpLoginRequest {
  /** email#serverId */
  username: string;
  password: string;
  /** The SFTP client's address, as the node saw it. */
  address: string;
  /** The node token from the request's Authorization header. */
  nodeToken: string | null;
}

export interface SftpLoginAnswer {
  userId: number;
  email: string;
}

export async function checkSftpLogin(db: Db, throttle: LoginThrottle, request: SftpLoginRequest): Promise<SftpLoginAnswer> {
  const callers = callingNodes(db, request.nodeToken);
  const login = parseSftpUsername(request.username);
  // A node checks logins for its own servers only.
  if (!login || !nodeHoldsServer(db, callers, login.serverId)) throw new KilnError("ErrNotFound", { reason: "server" }, "no such server on this node");

  const keys = throttleKeys(login.email, request.address);
  await throttle.gate(keys);
  let user: { id: number };
  try {
    user = await checkCredentials(db, login.email, request.password);
  } catch (error) {
    if (error instanceof KilnError && (error.code === "ErrInvalidCredentials" || error.code === "ErrFieldRequired")) throw failed(throttle, keys);
    throw error;
  }
  const account = getUser(db, user.id);
  const access = serverAccess(db, { id: account.id, username: account.username, email: account.email, scopes: scopesOf(db, account.id) }, login.serverId);
  // The password was right, so this is the account's owner: not a failure to count.
  if (!access.admin && !access.permissions.sftpServer) throw new KilnError("ErrNoPermission", { permission: "sftpServer" });
  throttle.succeed(keys);
  return { userId: account.id, email: account.email };
}

function failed(throttle: LoginThrottle, keys: string[]): KilnError {
  throttle.fail(keys);
  return new KilnError("ErrInvalidCredentials");
}

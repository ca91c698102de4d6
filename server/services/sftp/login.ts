// The panel's half of an SFTP login (the node asks, see daemon/sftp/panel-login.ts): the node
// must prove it holds the server, then the account's password is checked like a panel login
// (same throttle, per account and per address), then the flags (see access.ts): the answer says
// whether the session may change files, and the node enforces it, and whether the login is the
// server's owner's or an administrator's (the node keeps connection places for those). Two-factor
// does not apply: SFTP clients have no way to ask for a code.
import type { Db } from "../../../db";
import { KilnError } from "../../../core/errors";
import { callingNodes, nodeHoldsServer, type NodeCall } from "../nodes/caller";
import { parseSftpUsername } from "../../../core/sftp/username";
import { checkCredentials } from "../auth/credentials";
import { isCredentialFailure, throttleKeys, type LoginThrottle } from "../auth/throttle";
import { serverAccess, speaksForOwners } from "../servers/permissions";
import { getUser, scopesOf } from "../users";
import { sftpAccess } from "./access";
import { recordEvent } from "../activity/record";
import { userActor } from "../activity/actor";
import { recordLoginRefusal } from "../activity/logins";
import { SFTP_REASON_PREFIX } from "../../../core/activity/property-values";

export interface SftpLoginRequest {
  /** email#serverId */
  username: string;
  password: string;
  /** The SFTP client's address, as the node saw it. */
  address: string;
  /** The node's request: its token, method and target. */
  nodeCall: NodeCall;
}

export interface SftpLoginAnswer {
  userId: number;
  email: string;
  /** putServerFiles or admin: without it the node refuses every change (daemon/sftp/session.ts). */
  canWrite: boolean;
  /** The server's owner or an administrator: the node keeps connection places for them (daemon/sftp/server.ts). */
  owners: boolean;
}

export async function checkSftpLogin(db: Db, throttle: LoginThrottle, request: SftpLoginRequest): Promise<SftpLoginAnswer> {
  const callers = await callingNodes(db, request.nodeCall);
  try {
    const answer = await sftpLogin(db, throttle, callers, request);
    await recordEvent(db, "server.sftp.login", { actor: userActor({ id: answer.userId, username: answer.username }), ip: request.address, serverId: parseSftpUsername(request.username)!.serverId, subject: answer.userId, properties: { username: answer.username } });
    return { userId: answer.userId, email: answer.email, canWrite: answer.canWrite, owners: answer.owners };
  } catch (error) {
    // Bounded per address and name as a panel login's refusals are (a flood is counted, not written row by row).
    if (error instanceof KilnError) await recordLoginRefusal(db, { username: request.username, signInName: parseSftpUsername(request.username)?.email, address: request.address }, error, SFTP_REASON_PREFIX);
    throw error;
  }
}

async function sftpLogin(db: Db, throttle: LoginThrottle, callers: number[], request: SftpLoginRequest): Promise<SftpLoginAnswer & { username: string }> {
  const login = parseSftpUsername(request.username);
  // A node checks logins for its own servers only.
  if (!login || !await nodeHoldsServer(db, callers, login.serverId)) throw new KilnError("ErrNotFound", { reason: "server" }, "no such server on this node");

  const keys = throttleKeys(login.email, request.address);
  // The password was right when the check passes, so this is the account's owner: a missing
  // flag below is not a failure to count. An empty password is one (SFTP clients send it as a guess).
  const user = await throttle.check(
    keys,
    () =>
      checkCredentials(db, login.email, request.password).catch((error: unknown) => {
        throw error instanceof KilnError && error.code === "ErrFieldRequired" ? new KilnError("ErrInvalidCredentials") : error;
      }),
    isCredentialFailure,
  );
  const account = await getUser(db, user.id);
  const sessionUser = { id: account.id, username: account.username, email: account.email, scopes: await scopesOf(db, account.id) };
  const serverRights = await serverAccess(db, sessionUser, login.serverId);
  const access = sftpAccess(serverRights);
  if ("missing" in access) throw new KilnError("ErrNoPermission", { permission: access.missing });
  const owners = await speaksForOwners(db, sessionUser, serverRights, login.serverId);
  return { userId: account.id, email: account.email, username: account.username, canWrite: access.mode === "read-write", owners };
}

// The calls one feature's service makes to a server's node (its backups, its files), for the pages
// and their plain forms: each operation of the contract on this server, answered when it succeeds,
// else the node's catalogue error (callServerNode).
import type { NodeOperationName, OperationParams } from "../../../core/contract";
import { jsonInit, type OperationInit } from "../../daemon-client";
import type { Db } from "../../../db/client";
import { callServerNode } from "./index";

export abstract class ServerNodeCalls {
  constructor(
    protected readonly db: Db,
    protected readonly id: string,
  ) {}

  protected call(name: NodeOperationName, params: OperationParams = {}, init: OperationInit = {}): Promise<Response> {
    return callServerNode(this.db, this.id, name, params, init);
  }

  /** An operation whose body is `body` as JSON. */
  protected send(name: NodeOperationName, params: OperationParams, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
    return this.call(name, params, jsonInit(body, headers));
  }
}

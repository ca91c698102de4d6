// The panel's addresses a node's machine fetches when it is installed: the kiln executable and
// the node's config. One place for the routes that serve them (server/routes/node-install), the
// one-line install command and the deployment page's download link.

/** Where a node's machine fetches its executable, relative to the panel's address (":id" for the route). */
export function nodeExecutablePath(nodeId: number | ":id"): string {
  return `/api/nodes/${nodeId}/kiln`;
}

/** Where a node's machine fetches its config (it holds the secret), relative to the panel's address. */
export function nodeConfigPath(nodeId: number | ":id"): string {
  return `/api/nodes/${nodeId}/deployment/config`;
}

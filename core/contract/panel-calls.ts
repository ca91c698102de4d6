// Every call a node makes to the panel, once: the node's callers and the panel's routes both read
// these paths. Each carries a token signed with the node's secret for that one request.
export const PANEL_CALLS = {
  /** An SFTP login: the panel checks the user's password or key and the server's sftpServer flag. */
  sftpAuth: "/api/nodes/sftp/auth",
  /** Before a scheduled run: whether the task's owner may still do all of it. */
  taskCheck: "/api/nodes/tasks/check",
  /** What happened on the node (lifecycle, SFTP changes, task runs), for the activity log and webhooks. */
  events: "/api/nodes/events",
} as const;

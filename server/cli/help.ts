export const HELP = `Kiln: a self-hosted web panel for game and application servers.

Usage:
  kiln [panel]              Run the panel (web UI, API, proxy) with a local node. Default.
  kiln panel --no-local-node
                            Run the panel without its local node (several panels on one database).
  kiln daemon               Run a node only, for a machine the panel reaches over the network.
  kiln db migrate-to URL    Copy the panel's database into an empty one (postgres://… or
                            sqlite:<path>), check every table, and say what to change.
  kiln user add --email E --username U --password P [--admin]
                            Create an account (with --admin: the administrator scope).
  kiln version              Print the version.
  kiln --help               Print this help.

Configuration (read once at start-up; environment wins over the file):
  KILN_CONFIG     path of a JSON config file ({ "port", "host", "data", "trustProxy", "branding": { "name" } })
  KILN_PORT       port to listen on (default 8080)
  KILN_HOST       address to listen on (default 0.0.0.0)
  KILN_DATA       data folder: the SQLite database and the local node's files (default ./data)
  KILN_DATABASE_URL  postgres://user:password@host:5432/db to keep the panel's data in PostgreSQL
                  (default: SQLite at <data>/kiln.db); config file: "database": { "url" }
  KILN_TRUST_PROXY  1 to trust X-Forwarded-Proto from a reverse proxy
  KILN_ADMIN_EMAIL, KILN_ADMIN_PASSWORD, KILN_ADMIN_USERNAME
                  the administrator created on first start when no account exists; without
                  them Kiln creates admin@kiln.local with a random password and prints it once.
  KILN_LOCAL_NODE 0 to run the panel without its local node; process to run it in a process of
                  its own (consoles keep their pace under a flood of page requests; about 20 MB more)
  KILN_SFTP_PORT  the local node's SFTP port (default 5657)

Node configuration (kiln daemon; KILN_DAEMON_CONFIG or /etc/kiln/daemon.json, then):
  KILN_DAEMON_SECRET     the node secret the panel shows on the node's page (required)
  KILN_DAEMON_HOST, KILN_DAEMON_PORT   where the node API listens (default 0.0.0.0:8081)
  KILN_DAEMON_SFTP_PORT  SFTP port (default 5657)
  KILN_DAEMON_DATA       server definitions and folders (default /var/lib/kiln)
  KILN_DAEMON_PANEL_URL  the panel this node belongs to
  KILN_DOCKER_SOCKET     the Docker Engine socket (default /var/run/docker.sock)
`;

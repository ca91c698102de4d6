// Paths from PufferPanel's clients begin with "/" for the server's root (their file manager
// archives "/conf" into destination "/"), where Kiln's are relative to it. A leading "/" is
// read as the root: it is removed, and nothing else changes, so "/../x" still climbs and the
// jail still refuses it.

/** `path` relative to the server's folder ("/" and "" are the folder itself). */
export function serverRooted(path: string): string {
  return path.replace(/^\/+/, "");
}

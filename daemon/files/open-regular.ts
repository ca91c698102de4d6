// Opens a regular file for reading through the jail without ever blocking. open(2) of a FIFO
// for reading waits for a writer, and a FIFO is something anyone with the server's files (SFTP,
// the game itself) can make: opened plainly, it would stall the daemon's one thread for good.
// O_NONBLOCK makes that open return at once (it changes nothing for regular files), and the
// descriptor is refused unless it is a regular file.
import { closeSync, constants, fstatSync, type Stats } from "node:fs";
import { KilnError } from "../../core/errors";
import type { Jail } from "./jail";

export function openRegularFile(jail: Jail, path: string): { fd: number; stats: Stats } {
  const fd = jail.open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  let stats: Stats;
  try {
    stats = fstatSync(fd);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  if (!stats.isFile()) {
    closeSync(fd);
    throw new KilnError("ErrNotFound", { path }, `${path} is not a file`);
  }
  return { fd, stats };
}

// File attributes as SFTP carries them, and the `ls -l` line clients show (READDIR's longname).
import type { Stats } from "node:fs";
import { constants } from "node:fs";
import type { Attributes } from "ssh2";
import { shownName } from "../../core/files/shown-name";

export function toAttrs(stats: Stats): Attributes {
  return {
    mode: stats.mode,
    uid: stats.uid,
    gid: stats.gid,
    size: stats.size,
    atime: Math.floor(stats.atimeMs / 1000),
    mtime: Math.floor(stats.mtimeMs / 1000),
  };
}

const TYPES: Array<[number, string]> = [
  [constants.S_IFDIR, "d"],
  [constants.S_IFLNK, "l"],
  [constants.S_IFIFO, "p"],
  [constants.S_IFSOCK, "s"],
  [constants.S_IFCHR, "c"],
  [constants.S_IFBLK, "b"],
];

/** "drwxr-xr-x" for a mode, with setuid, setgid and sticky bits as ls shows them. */
export function modeString(mode: number): string {
  const type = TYPES.find(([bits]) => (mode & constants.S_IFMT) === bits)?.[1] ?? "-";
  const rwx = (shift: number, special: number, letter: string) => {
    const r = mode & (4 << shift) ? "r" : "-";
    const w = mode & (2 << shift) ? "w" : "-";
    const x = mode & (1 << shift);
    const s = mode & special;
    return r + w + (s ? (x ? letter : letter.toUpperCase()) : x ? "x" : "-");
  };
  return type + rwx(6, 0o4000, "s") + rwx(3, 0o2000, "s") + rwx(0, 0o1000, "t");
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const HALF_YEAR_MS = 182 * 24 * 3600 * 1000;

/**
 * Like OpenSSH's sftp-server: recent files show the time, older ones the year. Clients print the
 * line as it is, so the name is shown as the file manager shows it (core/files/shown-name): a
 * server's process names its files, and a line break would forge a line, a terminal escape reach
 * the user's terminal, a bidi override turn the name around. READDIR's filename stays exact.
 */
export function longname(name: string, stats: Stats, now = Date.now()): string {
  const date = new Date(stats.mtimeMs);
  const day = String(date.getDate()).padStart(2, " ");
  const recent = Math.abs(now - stats.mtimeMs) < HALF_YEAR_MS;
  const when = recent
    ? `${String(date.getHours()).padStart(2, "0")}:${String(date.getMinutes()).padStart(2, "0")}`
    : ` ${date.getFullYear()}`;
  const owner = String(stats.uid).padEnd(8, " ");
  const group = String(stats.gid).padEnd(8, " ");
  return `${modeString(stats.mode)} ${String(stats.nlink).padStart(3, " ")} ${owner} ${group} ${String(stats.size).padStart(8, " ")} ${MONTHS[date.getMonth()]} ${day} ${when} ${shownName(name)}`;
}

// Every refusal as an SFTP status: leaving the folder or lacking rights is PERMISSION_DENIED,
// nothing there is NO_SUCH_FILE, the rest FAILURE. Messages are short and never hold host paths.
import { KilnError } from "../../core/errors";
import { STATUS_CODE } from "./protocol";

export interface SftpStatus {
  code: number;
  message: string;
  /** Not a refusal we expected: worth a log line. */
  unexpected: boolean;
}

const ERRNO: Record<string, [number, string]> = {
  ENOENT: [STATUS_CODE.NO_SUCH_FILE, "No such file"],
  ENOTDIR: [STATUS_CODE.NO_SUCH_FILE, "No such file"],
  EACCES: [STATUS_CODE.PERMISSION_DENIED, "Permission denied"],
  EPERM: [STATUS_CODE.PERMISSION_DENIED, "Permission denied"],
  EXDEV: [STATUS_CODE.PERMISSION_DENIED, "Permission denied"],
  ELOOP: [STATUS_CODE.PERMISSION_DENIED, "Permission denied"],
  EROFS: [STATUS_CODE.PERMISSION_DENIED, "Read-only file system"],
  EEXIST: [STATUS_CODE.FAILURE, "Already exists"],
  ENOTEMPTY: [STATUS_CODE.FAILURE, "Folder not empty"],
  EISDIR: [STATUS_CODE.FAILURE, "Is a folder"],
  EINVAL: [STATUS_CODE.FAILURE, "Invalid argument"],
  ENOSPC: [STATUS_CODE.FAILURE, "No space left on device"],
  EDQUOT: [STATUS_CODE.FAILURE, "Disk quota exceeded"],
  ENAMETOOLONG: [STATUS_CODE.FAILURE, "File name too long"],
  EBUSY: [STATUS_CODE.FAILURE, "Busy"],
  EMFILE: [STATUS_CODE.FAILURE, "Too many open files"],
  ENFILE: [STATUS_CODE.FAILURE, "Too many open files"],
  EBADF: [STATUS_CODE.FAILURE, "Not open for that"],
  ENXIO: [STATUS_CODE.FAILURE, "Not a regular file"],
};

export function toStatus(error: unknown): SftpStatus {
  if (error instanceof KilnError) {
    if (error.code === "ErrPathOutside" || error.code === "ErrNoPermission") return { code: STATUS_CODE.PERMISSION_DENIED, message: "Permission denied", unexpected: false };
    // The server's fileDenylist: said as such, so the user knows it is the template's rule.
    if (error.code === "ErrFileDenied") return { code: STATUS_CODE.PERMISSION_DENIED, message: "Protected by the server's template", unexpected: false };
    if (error.code === "ErrNotFound") return { code: STATUS_CODE.NO_SUCH_FILE, message: "No such file", unexpected: false };
    return { code: STATUS_CODE.FAILURE, message: error.code, unexpected: false };
  }
  if (error instanceof SftpRefusal) return { code: error.status, message: error.message, unexpected: false };
  const known = ERRNO[(error as { code?: string })?.code ?? ""];
  if (known) return { code: known[0], message: known[1], unexpected: false };
  return { code: STATUS_CODE.FAILURE, message: "Failure", unexpected: true };
}

/** A refusal decided by the SFTP layer itself (a bad handle, too many handles, a folder where a file must be). */
export class SftpRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export { STATUS_CODE };

// What a failed restic run may say to the server's users: one of a few fixed reasons, chosen by
// what restic said on stderr, never its words themselves. restic's failures name the repository
// (s3:https://host/bucket, sftp:user@host:/folder), the address it dialled and the resolver it
// asked ("dial tcp: lookup host on 10.0.0.53:53: no such host"), and host paths: a server's users
// see a backup's reason on its console and in the error, and learn from it none of the node's
// targets or network. The node's log keeps restic's whole text (Restic.failed).

/** The reason for a run of `command` that ended with exit `code`, having said `stderr`. */
export function failureReason(command: string, code: number, stderr: string): string {
  const said = stderr.toLowerCase();
  // restic backup's exit 3: the snapshot was made, without some files it could not read.
  if (command === "backup" && code === 3) return "some files of the server's folder could not be read; the backup was made without them";
  // Order matters: a full disk or a wrong password is said beside "unable to open".
  if (/no space left on device|disk quota exceeded|quotaexceeded|insufficient storage/.test(said)) return "the backup target has no space left";
  if (/wrong password|no key found|ciphertext verification failed/.test(said)) return "the repository's password does not open it";
  if (/repository is already locked|unable to create lock|lock .* already/.test(said)) return "the repository is locked by another run; try again later";
  if (/no matching id|snapshot .*not found|invalid id|no snapshot found/.test(said)) return "the backup is not in the repository";
  if (
    /dial tcp|no such host|connection refused|connection reset|i\/o timeout|network is unreachable|host is unreachable|timeout|tls|x509|certificate|ssh|subprocess|unable to open (config|repository)|is there a repository|create repository|access denied|forbidden|signature|bucket|server response unexpected|unexpected http response|no route to host|eof/.test(
      said,
    )
  )
    return "the backup target could not be reached or refused the node";
  return `restic ${command} failed (exit ${code}); the node's log has what it said`;
}

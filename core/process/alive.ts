// Whether a process of this machine still runs, by its pid: signal 0 tests without sending
// anything; a process we may not signal (EPERM) runs.
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === "EPERM";
  }
}

// How long a node running in the test's own process held its only thread: the longest gap
// between 10 ms timer ticks while some work runs. Tests of what hostile output costs the node
// assert on it (a quadratic pattern shows as a gap of seconds).

/** The longest gap between timer ticks, in milliseconds, while `work` runs. */
export async function longestStall(work: () => Promise<unknown>): Promise<number> {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 10);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  // The gap still open when the work ends counts too: a hold at the very end is a hold.
  return Math.max(longest, performance.now() - last);
}

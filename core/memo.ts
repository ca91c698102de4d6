// A pure function of a text remembered for the texts it has seen: request headers repeat (a
// handful of hosts and languages), so each distinct value is worked out once. Past `max` distinct
// texts (someone sending made-up ones) it forgets them all and starts again: memory stays bounded.
export function memoByText<T>(compute: (text: string) => T, max = 1000): (text: string) => T {
  const seen = new Map<string, T>();
  return (text) => {
    let value = seen.get(text);
    if (value === undefined && !seen.has(text)) {
      value = compute(text);
      if (seen.size >= max) seen.clear();
      seen.set(text, value);
    }
    return value as T;
  };
}

import { expect, test } from "bun:test";
import { z } from "../zod";
import { envPeriodMs, envPort, LONGEST_TIMER_SECONDS, parseConfigFile } from ".";

class Refused extends Error {}
const schema = z.strictObject({ port: z.optional(z.number()) });

test("a config file is read against its schema, and each way it can be wrong names the file and fails with the caller's error", () => {
  expect(parseConfigFile(schema, "/etc/k.json", `{"port": 1}`, Refused)).toEqual({ port: 1 });
  expect(() => parseConfigFile(schema, "/etc/k.json", undefined, Refused)).toThrow(new Refused("config file not found: /etc/k.json"));
  expect(() => parseConfigFile(schema, "/etc/k.json", "{ nope", Refused)).toThrow(/^config file \/etc\/k\.json is not valid JSON: /);
  expect(() => parseConfigFile(schema, "/etc/k.json", `{"port": "1"}`, Refused)).toThrow(/^config file \/etc\/k\.json: port: /);
  // A strict schema: a misspelt key is refused, not ignored.
  expect(() => parseConfigFile(schema, "/etc/k.json", `{"prot": 1}`, Refused)).toThrow(Refused);
  expect(() => parseConfigFile(schema, "/etc/k.json", `[]`, Refused)).toThrow(/: \(root\): /);
});

test("a port from the environment: unset is undefined, 0 to 65535 is the number, anything else names the variable", () => {
  expect(envPort(undefined, "KILN_PORT", Refused)).toBeUndefined();
  expect(envPort("0", "KILN_PORT", Refused)).toBe(0);
  expect(envPort("65535", "KILN_PORT", Refused)).toBe(65535);
  for (const bad of ["65536", "-1", "8.5", "eighty"]) expect(() => envPort(bad, "KILN_PORT", Refused)).toThrow(new Refused(`KILN_PORT must be a port number, got "${bad}"`));
});

test("a period in seconds from the environment is in milliseconds, and none past a timer's longest wait (where it would fire at once)", () => {
  expect(envPeriodMs(undefined, "P", Refused)).toBeUndefined();
  expect(envPeriodMs("30", "P", Refused)).toBe(30_000);
  expect(envPeriodMs(String(LONGEST_TIMER_SECONDS), "P", Refused)!).toBeLessThanOrEqual(2 ** 31 - 1);
  expect(() => envPeriodMs(String(LONGEST_TIMER_SECONDS + 1), "P", Refused)).toThrow(Refused);
  for (const bad of ["0", "-5", "1.5", "soon"]) expect(() => envPeriodMs(bad, "P", Refused)).toThrow(Refused);
});

// The catalogue error a promise fails with; a promise that succeeds, or fails otherwise, fails the test.
import { expect } from "bun:test";
import { KilnError } from "../../core/errors";

export async function failure(promise: Promise<unknown>): Promise<KilnError> {
  const error = await promise.then(
    () => new Error("expected a failure"),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(KilnError);
  return error as KilnError;
}

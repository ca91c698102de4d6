// An attack that must be refused and change nothing: the answer is the expected catalogue error
// (or, for a form, the page with the translated message), and `snapshot` reads the same before
// and after.
import { expect } from "bun:test";

export const errorOf = async (res: Response) => ({ status: res.status, code: (await res.json()).error?.code });

export function refusals(snapshot: () => unknown) {
  // A snapshot may read the database, which answers asynchronously.
  return {
    async refused(attack: () => Promise<Response>, expected: { status: number; code: string }) {
      const before = await snapshot();
      expect(await errorOf(await attack())).toEqual(expected);
      expect(await snapshot()).toEqual(before);
    },
    async refusedForm(attack: () => Promise<Response>, status: number, message: string) {
      const before = await snapshot();
      const res = await attack();
      expect(res.status).toBe(status);
      expect(await res.text()).toContain(message);
      expect(await snapshot()).toEqual(before);
    },
  };
}

// The changes Kiln makes to a server's folder and definition on someone's behalf (a user's file
// operation at any door, a task's step, an install, a restore, an add-on change), counted while
// they run, and a hold that refuses new ones. A move between nodes holds a server from its offer
// to its end: the target copies the folder and the definition as they are, and a change made on
// the source after the copy read that part would be lost at the switch. The server's own process
// is not counted (a live move copies again once it is stopped), and neither are the steps a move
// itself asks for (stop, kill, removal: core/contract, whileMoving). A change still reading its
// request's body (an upload, all or nothing) can be ended: a move's offer ends those rather than
// wait for a sender who decides how long that takes.
import type { KilnError } from "../../core/errors";
import { once } from "../../core/once";

export class FolderChanges {
  private running = 0;
  private idleWaiters: Array<() => void> = [];
  private readonly bodies = new Set<(error: KilnError) => void>();
  private hold: () => KilnError | null = () => null;

  /** Sets what holds the server: while it answers an error, no change begins and no start either (Server.begin). */
  holdWhile(check: () => KilnError | null): void {
    this.hold = check;
  }

  /** Why changes and starts are held now, or null. */
  heldBecause(): KilnError | null {
    return this.hold();
  }

  /**
   * Counts one change from now; throws the hold's error when held. The call it answers ends it
   * (once). `endBody` ends the request body the change reads, if it has one (http/paced-body).
   */
  begin(endBody?: (error: KilnError) => void): () => void {
    const held = this.hold();
    if (held) throw held;
    this.running++;
    if (endBody) this.bodies.add(endBody);
    return once(() => {
      if (endBody) this.bodies.delete(endBody);
      this.running--;
      if (this.running === 0) for (const wake of this.idleWaiters.splice(0)) wake();
    });
  }

  /** Ends, with `error`, the bodies that running changes are still reading (a body read to its end is not touched). */
  endBodies(error: KilnError): void {
    for (const end of [...this.bodies]) end(error);
  }

  /** Runs `work` as one change (refused when held). */
  async during<T>(work: () => Promise<T>): Promise<T> {
    const end = this.begin();
    try {
      return await work();
    } finally {
      end();
    }
  }

  /** Resolves true once no change runs, or false when some still run after `ms`. */
  async idle(ms: number): Promise<boolean> {
    if (this.running === 0) return true;
    let wake = (): void => undefined;
    const ended = new Promise<boolean>((resolve) => (wake = () => resolve(true)));
    this.idleWaiters.push(wake);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
    const result = await Promise.race([ended, late]);
    clearTimeout(timer);
    this.idleWaiters = this.idleWaiters.filter((waiter) => waiter !== wake);
    return result;
  }
}

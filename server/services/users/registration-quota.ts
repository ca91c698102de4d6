// How many accounts strangers may make by self-registration (when an administrator opened it).
// Each is an account row and a session, made by anyone who can reach the page: without a bound a
// loop from one machine filled the accounts table. Counted per address (an IPv6 address by its /64,
// which one subscriber is given whole) and for the whole panel, in the database, so every panel
// process counts the same; every attempt counts, taken or not, so guessing which emails have
// accounts by registering them costs a place too.
import { KilnError } from "../../../core/errors";
import { subscriberNetwork } from "../../../core/net/address-rules";
import type { Db } from "../../../db";
import { putValue, readValue } from "../cluster/one-time-values";

/** Registrations from one address (or IPv6 /64) in any 24 hours: a household or a LAN party's share. */
export const REGISTRATIONS_PER_ADDRESS = 10;
/** Registrations from every address together in any 24 hours: what a botnet's addresses reach at most. */
export const REGISTRATIONS_PER_PANEL = 500;
const DAY_MS = 24 * 60 * 60 * 1000;
const KIND = "registrations";
const PANEL = "*";

/** Counts one registration from `address`, or refuses it (ErrTooManyRequests, nothing counted) when its network or the panel reached its bound. */
export async function countRegistration(db: Db, address: string, now = Date.now()): Promise<void> {
  await db.transaction(async (tx) => {
    const recent = async (key: string) => {
      const stored = await readValue(tx, KIND, key, now);
      return (stored === undefined ? [] : (JSON.parse(stored) as number[])).filter((at) => at > now - DAY_MS);
    };
    const network = subscriberNetwork(address);
    const fromNetwork = await recent(network);
    const fromAll = await recent(PANEL);
    if (fromNetwork.length >= REGISTRATIONS_PER_ADDRESS) throw new KilnError("ErrTooManyRequests", { limit: REGISTRATIONS_PER_ADDRESS });
    if (fromAll.length >= REGISTRATIONS_PER_PANEL) throw new KilnError("ErrTooManyRequests", { limit: REGISTRATIONS_PER_PANEL });
    await putValue(tx, KIND, network, JSON.stringify([...fromNetwork, now]), now + DAY_MS);
    await putValue(tx, KIND, PANEL, JSON.stringify([...fromAll, now]), now + DAY_MS);
  });
}

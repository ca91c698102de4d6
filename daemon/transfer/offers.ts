// The source node's offers: which server's folder a ticket opens, and until when. A ticket is the
// only credential of the node-to-node routes, so only its SHA-256 is kept (a memory dump or a log
// of this map opens nothing) and a presented ticket is compared with each in constant time. Offers
// live in memory: a node restart revokes them all, and the panel asks again.
//
// A ticket also bounds the reads it opens at once (takeRead): the target holding it is another
// machine, and each read it opens and leaves unread holds a descriptor and a buffer here.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { KilnError } from "../../core/errors";
import { once } from "../../core/once";

/** How long an offer stays good when the panel never revokes it (a move that was abandoned). */
export const OFFER_TTL_MS = 24 * 60 * 60 * 1000;

/** Reads of an offered folder at once under one ticket (manifests and files together): a pull needs five. */
export const MAX_READS_PER_OFFER = 16;

/** 32 random bytes in base64url, as POST …/transfer/offer hands them out. */
const TICKET = /^[A-Za-z0-9_-]{43}$/;

interface Offer {
  ticketHash: Buffer;
  expires: number;
  /** SHA-256s of files already hashed for a manifest, by what identifies their content (see below). */
  hashes: Map<string, string>;
  /** Manifests and files being sent under this ticket now. */
  reading: number;
}

export class TransferOffers {
  private readonly offers = new Map<string, Offer>();

  constructor(private readonly now: () => number = Date.now) {}

  /** A new ticket for the server's folder; an earlier offer of the same server stops working. */
  offer(serverId: string): string {
    const ticket = randomBytes(32).toString("base64url");
    this.offers.set(serverId, { ticketHash: hashOf(ticket), expires: this.now() + OFFER_TTL_MS, hashes: new Map(), reading: 0 });
    return ticket;
  }

  revoke(serverId: string): void {
    this.offers.delete(serverId);
  }

  /** Whether the server's folder is offered now (its server then does not start: ./index). */
  isOffered(serverId: string): boolean {
    const offer = this.offers.get(serverId);
    return offer !== undefined && offer.expires > this.now();
  }

  /** The server a presented ticket opens, or null (unknown, revoked, expired or malformed). */
  serverFor(ticket: string | null): string | null {
    if (ticket === null || !TICKET.test(ticket)) return null;
    const presented = hashOf(ticket);
    const now = this.now();
    let found: string | null = null;
    // Every offer is compared (no early exit), each in constant time.
    for (const [serverId, offer] of this.offers) {
      if (offer.expires <= now) {
        this.offers.delete(serverId);
        continue;
      }
      if (timingSafeEqual(offer.ticketHash, presented)) found = serverId;
    }
    return found;
  }

  /**
   * A slot for one read of the offered folder, and the call that gives it back (once, whatever
   * calls it): ErrTooManyRequests when the offer has MAX_READS_PER_OFFER under way. A slot taken
   * under an offer since replaced or revoked is given back to that offer, which nothing reads.
   */
  takeRead(serverId: string): () => void {
    const offer = this.offers.get(serverId);
    if (!offer) return () => undefined;
    if (offer.reading >= MAX_READS_PER_OFFER) throw new KilnError("ErrTooManyRequests", { max: MAX_READS_PER_OFFER }, "too many reads under this transfer ticket at once");
    offer.reading++;
    return once(() => {
      offer.reading--;
    });
  }

  /**
   * The offer's memory of file hashes: a final sync after a first copy lists the same folder again,
   * and a file whose inode, size, modification and change times are all unchanged need not be read
   * again (any write or chmod moves the change time, to the nanosecond).
   */
  hashCache(serverId: string): Map<string, string> {
    return this.offers.get(serverId)?.hashes ?? new Map();
  }
}

function hashOf(ticket: string): Buffer {
  return createHash("sha256").update(ticket).digest();
}

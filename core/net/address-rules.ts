// Which addresses a node or panel must not be sent to on a user's behalf: its own loopback, the
// unspecified address (which reaches loopback), link-local ranges (cloud metadata services live at
// 169.254.169.254), multicast and broadcast. Addresses are compared after the WHATWG URL parser has
// read them, so every spelling of one address is that address: 127.1, 2130706433, 0x7f.0.0.1 and
// 017700000001 are 127.0.0.1, and ::ffff:127.0.0.1 is IPv4's loopback inside IPv6.

/** The host as an HTTP URL's parser reads it: IPv4 in dotted decimal, IPv6 without brackets, names lower-cased. */
export function canonicalHost(host: string): string | null {
  try {
    const bracketed = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
    const parsed = new URL(`http://${bracketed}/`).hostname;
    return parsed.startsWith("[") ? parsed.slice(1, -1) : parsed;
  } catch {
    return null;
  }
}

/** An address as one spelling: IPv4 dotted also when it is written inside IPv6 (::ffff:c000:202 is 192.0.2.2). */
export function plainAddress(address: string): string {
  const canonical = canonicalHost(address) ?? address;
  return ipv4Of(canonical)?.join(".") ?? canonical;
}

/**
 * The network a caller's address stands for when counting what one visitor may do: IPv4 as it is,
 * IPv6 its first 64 bits (one subscriber is given a whole /64, and picks any of its addresses).
 */
export function subscriberNetwork(address: string): string {
  const plain = plainAddress(address);
  const words = ipv6Words(plain);
  if (!words) return plain;
  const network = `${words.slice(0, 4).map((w) => w.toString(16)).join(":")}::/64`;
  // A NAT64 address (RFC 6052) is one IPv4 host seen through a translator in front of the panel
  // (SIIT-DC): its /64 holds every IPv4 visitor, so one visitor's count was all of theirs. The
  // well-known prefix's is counted as that host; a network's own prefix's (where the host sits
  // depends on its length) by the whole address, which is one host however the prefix is cut.
  if (words[0] === 0x64 && words[1] === 0xff9b) return words[2] === 1 ? words.map((w) => w.toString(16)).join(":") : (nat64Embedded(words) ?? network);
  return network;
}

/**
 * Clouds' metadata services outside the link-local range: Alibaba's (100.100.100.200), Azure's
 * wire server (168.63.129.16) and AWS's IPv6 one (fd00:ec2::254). They hand out the machine's
 * credentials as 169.254.169.254 does.
 */
const METADATA_ADDRESSES = new Set(["100.100.100.200", "168.63.129.16", "fd00:ec2::254"]);

/** Why an address (IPv4 dotted or IPv6, as canonicalHost or a resolver gives it) is refused, or null when it is not. */
export function refusedAddress(address: string): string | null {
  if (METADATA_ADDRESSES.has(plainAddress(address))) return "metadata";
  const v4 = ipv4Of(address);
  if (v4) {
    const [a, b] = v4 as [number, number, number, number];
    if (a === 127) return "loopback";
    if (a === 0) return "unspecified";
    if (a === 169 && b === 254) return "link-local";
    if (a >= 224 && a <= 239) return "multicast";
    if (v4.every((n) => n === 255)) return "broadcast";
    return null;
  }
  const words = ipv6Words(address);
  if (!words) return null;
  if (words.every((w) => w === 0)) return "unspecified";
  if (words.slice(0, 7).every((w) => w === 0) && words[7] === 1) return "loopback";
  if ((words[0]! & 0xffc0) === 0xfe80) return "link-local";
  if ((words[0]! & 0xff00) === 0xff00) return "multicast";
  return null;
}

/**
 * Why an address is inside a network rather than on the internet, or null: everything
 * refusedAddress refuses, and the private ranges (10/8, 172.16/12, 192.168/16, the carrier-grade
 * 100.64/10, 0/8, IPv6 unique-local fc00::/7), also behind NAT64's prefixes. For what the panel
 * sends on a user's word to an address the user chose (a webhook): a user must not reach the
 * panel's own network through it.
 */
export function internalAddress(address: string): string | null {
  const refused = refusedAddress(address);
  if (refused) return refused;
  const v4 = ipv4Of(address);
  if (v4) {
    const [a, b] = v4 as [number, number, number, number];
    if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127)) return "private";
    return null;
  }
  const words = ipv6Words(address);
  if (words && (words[0]! & 0xfe00) === 0xfc00) return "private";
  // NAT64 (RFC 6052's 64:ff9b::/96, and 64:ff9b:1::/48 for a network's own translator): on an
  // IPv6-only network (AWS's and Google's NAT64 subnets, DNS64 resolvers) 64:ff9b::a00:5 is
  // 10.0.0.5 reached through the translator, the panel's own network spelled in IPv6.
  const embedded = words && nat64Embedded(words);
  return embedded ? internalAddress(embedded) : null;
}

/**
 * The IPv4 address a NAT64 address stands for, dotted; null for any other address. Where a
 * network's own prefix (64:ff9b:1::/48) puts the IPv4 address depends on the length its operator
 * chose, so any address in it is taken for the private range it most likely reaches.
 */
function nat64Embedded(words: number[]): string | null {
  if (words[0] !== 0x64 || words[1] !== 0xff9b) return null;
  if (words[2] === 1) return "10.0.0.0";
  if (!words.slice(2, 6).every((w) => w === 0)) return null;
  return [words[6]! >> 8, words[6]! & 0xff, words[7]! >> 8, words[7]! & 0xff].join(".");
}

/** The four numbers of an IPv4 address, also when it is written inside IPv6 (::ffff:a.b.c.d or ::a.b.c.d). */
function ipv4Of(address: string): number[] | null {
  const dotted = /^(?:::(?:ffff:)?)?(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/i.exec(address);
  if (dotted) return dotted.slice(1).map(Number);
  const words = ipv6Words(address);
  // ::ffff:7f00:1 and ::7f00:1, the same addresses written in hexadecimal.
  if (words && words.slice(0, 5).every((w) => w === 0) && (words[5] === 0xffff || (words[5] === 0 && (words[6] !== 0 || words[7]! > 1)))) {
    return [words[6]! >> 8, words[6]! & 0xff, words[7]! >> 8, words[7]! & 0xff];
  }
  return null;
}

/** The eight 16-bit words of an IPv6 address, or null when it is not one. */
export function ipv6Words(address: string): number[] | null {
  if (!address.includes(":")) return null;
  const text = address.replace(/%.*$/, "").toLowerCase();
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const parse = (part: string) => (part === "" ? [] : part.split(":"));
  const head = parse(halves[0]!);
  const tail = halves.length === 2 ? parse(halves[1]!) : [];
  const expand = (groups: string[]): number[] | null => {
    const out: number[] = [];
    for (const group of groups) {
      if (/^\d{1,3}(\.\d{1,3}){3}$/.test(group)) {
        const [a, b, c, d] = group.split(".").map(Number) as [number, number, number, number];
        out.push((a << 8) | b, (c << 8) | d);
      } else if (/^[0-9a-f]{1,4}$/.test(group)) out.push(parseInt(group, 16));
      else return null;
    }
    return out;
  };
  const h = expand(head);
  const t = expand(tail);
  if (!h || !t) return null;
  const missing = 8 - h.length - t.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  return [...h, ...Array(missing).fill(0), ...t];
}

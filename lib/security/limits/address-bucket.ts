import { isIP } from "node:net";

/**
 * The unit a rate limit counts an address in: an IPv4 address as it is, an IPv6 address by its
 * /64 prefix. One IPv6 subscriber usually holds a whole /64 (often more): keyed per /128, every
 * guess could come from a new address of the same line. Anything that is not an address (the
 * "unknown" of a request whose socket was not seen) is its own bucket.
 * Pure (no server-only): tests import it directly.
 */
export function addressBucket(ip: string): string {
  if (isIP(ip) !== 6) return ip;
  const groups = expandIpv6(ip);
  return groups ? `${groups.slice(0, 4).join(":")}::/64` : ip;
}

/** The 8 groups of an IPv6 address, each as 4 lower-case hex digits (an IPv4 tail in two groups). */
function expandIpv6(ip: string): string[] | undefined {
  let address = ip.toLowerCase().split("%")[0]!;
  const v4 = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(address);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    address = `${address.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = address.split("::") as [string, string | undefined];
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const missing = 8 - left.length - right.length;
  if (missing < 0 || (tail === undefined && missing !== 0)) return undefined;
  const groups = [...left, ...Array<string>(tail === undefined ? 0 : missing).fill("0"), ...right];
  return groups.map((group) => group.padStart(4, "0"));
}

import { randomBytes, timingSafeEqual } from "node:crypto";
import { isIP } from "node:net";
import { processSingleton } from "@/lib/process/singleton";

/**
 * The client's address, for rate limits and the audit log. A header the client writes can never
 * be trusted on its own: `X-Forwarded-For` is whatever the client sent, with each proxy on the
 * way appending the address it saw. So:
 * - with no proxy in front (`TRUSTED_PROXY_HOPS=0`, the default) the address is the TCP socket's,
 *   which the server entry stamps on every request in {@link SOCKET_ADDRESS_HEADER} after deleting
 *   any copy the client sent (lib/security/network/socket-address.ts). The stamp carries this process's
 *   random key, so that a server started another way (`next start`, `next dev` run directly), which
 *   stamps nothing, never believes the client's copy;
 * - behind N proxies that each append to X-Forwarded-For, it is the Nth entry from the right (the
 *   one our outermost proxy appended). The first entry, and anything left of the Nth, is the
 *   client's own writing and never read.
 * Pure (no server-only): tests import it directly.
 */

/** Internal: set by the server from the socket; a client-sent copy is deleted before anyone reads it. */
export const SOCKET_ADDRESS_HEADER = "x-tfc-socket-address";

export const UNKNOWN_IP = "unknown";

interface HeaderSource {
  get(name: string): string | null;
}

// One per process (lib/process/singleton.ts) so that the server entry's copy of this module (which
// stamps) and the app's (which reads) share it.
function stampKey(): string {
  return processSingleton("security.socket-stamp-key", () => randomBytes(18).toString("base64url"));
}

/** The header's value for a request from `address`, as the server stamps it: this process's key, then the address. */
export function socketStampValue(address: string): string {
  return `${stampKey()} ${address}`;
}

/** The address of a stamp this process wrote; undefined for any other value (a client's). */
function stampedAddress(value: string | null): string | undefined {
  const space = value?.indexOf(" ") ?? -1;
  if (!value || space === -1) return undefined;
  const key = Buffer.from(value.slice(0, space));
  const expected = Buffer.from(stampKey());
  if (key.length !== expected.length || !timingSafeEqual(key, expected)) return undefined;
  return normalizeIp(value.slice(space + 1));
}

export function clientIpFrom(headers: HeaderSource, trustedProxyHops: number): string {
  const socket = stampedAddress(headers.get(SOCKET_ADDRESS_HEADER));
  if (trustedProxyHops <= 0) return socket ?? UNKNOWN_IP;
  const entries = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  // Fewer entries than proxies: the request did not come through all of them (or one is
  // misconfigured); the socket is then the only address nobody could write.
  if (entries.length < trustedProxyHops) return socket ?? UNKNOWN_IP;
  return normalizeIp(entries[entries.length - trustedProxyHops]) ?? UNKNOWN_IP;
}

/** An IP address in its plain form (IPv4-mapped IPv6 as IPv4); undefined for anything else. */
export function normalizeIp(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  let ip = value.trim();
  if (ip.startsWith("[") && ip.includes("]")) ip = ip.slice(1, ip.indexOf("]"));
  else if (/^\d{1,3}(\.\d{1,3}){3}:\d+$/.test(ip)) ip = ip.slice(0, ip.lastIndexOf(":"));
  if (/^::ffff:\d{1,3}(\.\d{1,3}){3}$/i.test(ip)) ip = ip.slice(7);
  return isIP(ip) ? ip.toLowerCase() : undefined;
}

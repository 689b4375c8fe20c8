import { BlockList, isIP } from "node:net";
import { getEnv } from "@/lib/config/env";
import { allowListAllows, emptyAllowList, type AllowList } from "@/lib/config/allow-list";

/**
 * The address policy for requests this app sends to URLs someone else chose (SSRF): a partner's
 * notification URL, a sandbox webhook target. It judges addresses and URLs that are given;
 * resolving names and connecting is lib/security/network/outbound.ts's (and the sandbox's own engine). The
 * one setting it reads is the operator's list of private partner hosts (NOTIFICATION_PRIVATE_HOSTS).
 *
 * Every address a host name resolves to is judged, not only a literal in the URL, and an
 * IPv4-mapped IPv6 address (`::ffff:127.0.0.1`) is judged as its IPv4 address. Decimal, octal and
 * hex IPv4 forms (`http://2130706433/`, `http://0x7f.1/`) are normalised by the WHATWG URL parser
 * before they reach this module, so they are judged as the address they name.
 */

export type AddressKind = "public" | "loopback" | "private" | "link-local";

/** Never reachable, whatever the configuration: link-local (metadata services live there). */
const LINK_LOCAL = new BlockList();
LINK_LOCAL.addSubnet("169.254.0.0", 16, "ipv4");
LINK_LOCAL.addSubnet("fe80::", 10, "ipv6");
// AWS's IPv6 metadata address (inside fc00::/7, but never allowed).
LINK_LOCAL.addAddress("fd00:ec2::254", "ipv6");
// Azure's wire server (metadata and agent traffic), a public-looking address every VM can reach.
LINK_LOCAL.addAddress("168.63.129.16", "ipv4");

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet("127.0.0.0", 8, "ipv4");
LOOPBACK.addAddress("::1", "ipv6");

/**
 * Private, shared, reserved, multicast and "this network" ranges. The documentation ranges
 * (192.0.2.0/24, 203.0.113.0/24, 2001:db8::/32) route nowhere, so they stay "public": tests use them
 * as stand-ins for a partner's public address.
 */
const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 96], // unspecified and IPv4-compatible
  ["64:ff9b::", 96], // NAT64: may reach anything behind the gateway
  ["64:ff9b:1::", 48], // local-use NAT64
  ["2002::", 16], // 6to4: a relay would carry it to the embedded IPv4 address, whatever that is
  ["fc00::", 7],
  ["fec0::", 10], // deprecated site-local
  ["ff00::", 8],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, "ipv6");
}

/** Cloud metadata services' names: refused before any lookup. */
export const METADATA_HOSTS: ReadonlySet<string> = new Set([
  "metadata",
  "metadata.google.internal",
  "instance-data",
  "instance-data.ec2.internal",
]);

/**
 * What kind of address this is; an IPv4-mapped (`::ffff:0:0/96`) or IPv4-translated
 * (`::ffff:0:0:0/96`) IPv6 address is judged as the IPv4 address it embeds. Not an IP: "private".
 */
export function classifyAddress(address: string): AddressKind {
  let ip = address.replace(/^\[|\]$/g, "");
  // A zone index (`fe80::1%eth0`) names an interface of this machine: judged without it.
  const zone = ip.indexOf("%");
  if (zone !== -1) ip = ip.slice(0, zone);
  let family = isIP(ip);
  if (family === 6) {
    const mapped = mappedIpv4(ip);
    if (mapped !== undefined) {
      ip = mapped;
      family = 4;
    }
  }
  if (family === 0) return "private";
  const type = family === 4 ? "ipv4" : "ipv6";
  if (LINK_LOCAL.check(ip, type)) return "link-local";
  if (LOOPBACK.check(ip, type)) return "loopback";
  if (NOT_PUBLIC.check(ip, type)) return "private";
  return "public";
}

/** `::ffff:a.b.c.d` and `::ffff:0:a.b.c.d` (written either way) -> `a.b.c.d`. */
function mappedIpv4(ipv6: string): string | undefined {
  const groups = expandIpv6(ipv6);
  if (groups === undefined) return undefined;
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  const translated = groups.slice(0, 4).every((g) => g === 0) && groups[4] === 0xffff && groups[5] === 0;
  if (!mapped && !translated) return undefined;
  const [hi, lo] = [groups[6]!, groups[7]!];
  return [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff].join(".");
}

function expandIpv6(ip: string): number[] | undefined {
  let text = ip.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const parts = dotted[1]!.split(".").map(Number);
    text =
      text.slice(0, -dotted[1]!.length) + `${((parts[0]! << 8) | parts[1]!).toString(16)}:${((parts[2]! << 8) | parts[3]!).toString(16)}`;
  }
  const [head, tail] = text.split("::", 2) as [string, string | undefined];
  const parse = (s: string) => (s === "" ? [] : s.split(":").map((g) => Number.parseInt(g, 16)));
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  const missing = 8 - left.length - right.length;
  if (missing < 0 || (tail === undefined && missing !== 0)) return undefined;
  const groups = [...left, ...Array<number>(missing).fill(0), ...right];
  return groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : undefined;
}

// ---------------------------------------------------------------------------------------------
// Destinations

export interface DestinationPolicy {
  /** Only `https:` (production). */
  httpsOnly: boolean;
  /** Loopback addresses allowed (the sandbox and tests: the partner's test site runs on 127.0.0.1). */
  allowLoopback: boolean;
  /**
   * Private or loopback hosts, addresses and ranges the operator allows although they are not
   * public (partners on a private network). Link-local and metadata addresses stay refused.
   */
  privateHosts?: AllowList;
}

/**
 * A partner's notification URL: https and public addresses in production; loopback too on the
 * sandbox; and, in either, the private hosts the operator lists (NOTIFICATION_PRIVATE_HOSTS, none
 * by default), read from the configuration unless given.
 */
export function notificationPolicy(
  environment: "sandbox" | "production",
  privateHosts: AllowList = getEnv().notifications.privateHosts,
): DestinationPolicy {
  const base = environment === "production" ? { httpsOnly: true, allowLoopback: false } : { httpsOnly: false, allowLoopback: true };
  return { ...base, privateHosts };
}

export interface Destination {
  url: URL;
  /** The host name as the URL names it, without IPv6 brackets, lower-case. */
  host: string;
}

export type DestinationCheck<T> = { ok: true; value: T } | { ok: false; reason: string };

/** The URL itself: parsed (numeric IPv4 forms normalised), scheme, no credentials, no metadata name. */
export function checkDestinationUrl(raw: string, policy: DestinationPolicy): DestinationCheck<Destination> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: "not a URL" };
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && !policy.httpsOnly)) {
    return { ok: false, reason: policy.httpsOnly ? "only https destinations are allowed" : "only http and https destinations are allowed" };
  }
  if (url.username !== "" || url.password !== "") return { ok: false, reason: "credentials in the URL are not allowed" };
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (METADATA_HOSTS.has(host)) return { ok: false, reason: "cloud metadata hosts are never allowed" };
  return { ok: true, value: { url, host } };
}

/**
 * Every address the host resolved to must be allowed: one bad address refuses the destination.
 * `host` (as the URL names it, lower-case) lets a host name the operator listed reach its private
 * addresses.
 */
export function checkResolvedAddresses(
  addresses: readonly string[],
  policy: DestinationPolicy,
  host?: string,
): DestinationCheck<readonly string[]> {
  if (addresses.length === 0) return { ok: false, reason: "the host name did not resolve" };
  const listed = policy.privateHosts ?? emptyAllowList();
  for (const address of addresses) {
    const kind = classifyAddress(address);
    if (kind === "public" || (kind === "loopback" && policy.allowLoopback)) continue;
    if ((kind === "loopback" || kind === "private") && allowListAllows(listed, host, address)) continue;
    return {
      ok: false,
      reason:
        kind === "link-local"
          ? "the destination resolves to a link-local address, never allowed"
          : `the destination resolves to a ${kind} address, not allowed (an operator may allow a private partner host with NOTIFICATION_PRIVATE_HOSTS)`,
    };
  }
  return { ok: true, value: addresses };
}

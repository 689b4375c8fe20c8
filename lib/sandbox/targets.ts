import "server-only";
import { BlockList, isIP } from "node:net";

/**
 * Where the sandbox may send a webhook. Anyone with a key chooses `webhookUrl`, so a delivery must
 * not become a way into the network the sandbox runs in (SSRF): only http(s), and never to
 * link-local or cloud metadata addresses; private, loopback and other non-public addresses only
 * when allowed (loopback in local mode, the default; anything else through the allow-list).
 *
 * The host name is resolved and every address it resolves to is checked, not only the literal.
 * What is not covered: a name that resolves differently between this check and the connection
 * (DNS rebinding) within the same second.
 */

export type AddressKind = "public" | "loopback" | "private" | "link-local";

export interface AllowList {
  hosts: ReadonlySet<string>;
  addresses: BlockList;
  empty: boolean;
}

export interface TargetPolicy {
  localMode: boolean;
  allowList: AllowList;
}

export type TargetCheck = { ok: true } | { ok: false; reason: string };

export type Lookup = (hostname: string) => Promise<{ address: string; family: number }[]>;

/** Never reachable, whatever the configuration: link-local (metadata services live there). */
const LINK_LOCAL = new BlockList();
LINK_LOCAL.addSubnet("169.254.0.0", 16, "ipv4");
LINK_LOCAL.addSubnet("fe80::", 10, "ipv6");
// AWS's IPv6 metadata address (inside fc00::/7, but never allowed).
LINK_LOCAL.addAddress("fd00:ec2::254", "ipv6");

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet("127.0.0.0", 8, "ipv4");
LOOPBACK.addAddress("::1", "ipv6");

/** Private, shared, reserved, multicast and "this network" ranges. */
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
  ["fc00::", 7],
  ["ff00::", 8],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, "ipv6");
}

const METADATA_HOSTS = new Set(["metadata", "metadata.google.internal", "instance-data", "instance-data.ec2.internal"]);

/** What kind of address this is; an IPv4-mapped IPv6 address is judged as its IPv4 address. */
export function classifyAddress(address: string): AddressKind {
  let ip = address;
  let family = isIP(ip);
  if (family === 6) {
    const mapped = mappedIpv4(ip);
    if (mapped !== undefined) {
      ip = mapped;
      family = 4;
    }
  }
  const type = family === 4 ? "ipv4" : "ipv6";
  if (family === 0) return "private";
  if (LINK_LOCAL.check(ip, type)) return "link-local";
  if (LOOPBACK.check(ip, type)) return "loopback";
  if (NOT_PUBLIC.check(ip, type)) return "private";
  return "public";
}

/** `::ffff:a.b.c.d` (written either way) -> `a.b.c.d`. */
function mappedIpv4(ipv6: string): string | undefined {
  const groups = expandIpv6(ipv6);
  if (groups === undefined) return undefined;
  if (groups.slice(0, 5).some((g) => g !== 0) || groups[5] !== 0xffff) return undefined;
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

/** `partner.internal, 10.0.0.5, 192.168.0.0/16` -> an allow-list; or the entry it cannot read. */
export function parseAllowList(text: string): { ok: true; list: AllowList } | { ok: false; entry: string } {
  const hosts = new Set<string>();
  const addresses = new BlockList();
  const entries = text.split(/[\s,]+/).filter(Boolean);
  for (const entry of entries) {
    const [ip, prefix, ...rest] = entry.split("/");
    const family = isIP(ip!);
    if (family !== 0) {
      const type = family === 4 ? "ipv4" : "ipv6";
      if (prefix === undefined) addresses.addAddress(ip!, type);
      else {
        const bits = Number(prefix);
        if (rest.length > 0 || !/^\d+$/.test(prefix) || bits > (family === 4 ? 32 : 128)) return { ok: false, entry };
        addresses.addSubnet(ip!, bits, type);
      }
    } else if (prefix === undefined && /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i.test(entry)) {
      hosts.add(entry.toLowerCase());
    } else {
      return { ok: false, entry };
    }
  }
  return { ok: true, list: { hosts, addresses, empty: entries.length === 0 } };
}

export function emptyAllowList(): AllowList {
  return { hosts: new Set(), addresses: new BlockList(), empty: true };
}

/** Whether a delivery to `url` may go out now. Never throws. */
export async function checkTarget(url: string, policy: TargetPolicy, lookup: Lookup): Promise<TargetCheck> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: "not a URL" };
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return { ok: false, reason: "only http and https targets are allowed" };
  const host = parsed.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (METADATA_HOSTS.has(host)) return { ok: false, reason: "cloud metadata hosts are never allowed" };
  const hostAllowed = policy.allowList.hosts.has(host);

  let addresses: string[];
  if (isIP(host) !== 0) addresses = [host];
  else {
    try {
      addresses = (await lookup(host)).map((a) => a.address);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      return { ok: false, reason: `the host name did not resolve${typeof code === "string" ? ` (${code})` : ""}` };
    }
    if (addresses.length === 0) return { ok: false, reason: "the host name did not resolve" };
  }

  for (const address of addresses) {
    const kind = classifyAddress(address);
    if (kind === "public") continue;
    if (kind === "link-local") return { ok: false, reason: `the target resolves to a link-local or metadata address (${address})` };
    const listed = hostAllowed || policy.allowList.addresses.check(address, isIP(address) === 6 ? "ipv6" : "ipv4");
    if (listed) continue;
    if (kind === "loopback" && policy.localMode) continue;
    return {
      ok: false,
      reason: `the target resolves to a ${kind === "loopback" ? "loopback" : "private or reserved"} address (${address}), not allowed${kind === "loopback" ? " outside local mode" : ""} (see SANDBOX_ALLOWED_TARGETS)`,
    };
  }
  return { ok: true };
}

/**
 * The URL as it may be shown or logged: origin, and the path with every segment that is not a
 * short lower-case word replaced by `…` (our webhook URLs carry a token as their last segment);
 * no query, no fragment, no credentials.
 */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "(invalid URL)";
  }
  const segments = parsed.pathname.split("/").map((segment) => (segment === "" || /^[a-z]{1,16}$/.test(segment) ? segment : "…"));
  return `${parsed.protocol}//${parsed.host}${segments.join("/")}${parsed.search ? "?…" : ""}`;
}

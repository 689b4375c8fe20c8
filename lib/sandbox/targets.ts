import "server-only";
import { isIP } from "node:net";
import { allowListAllows, emptyAllowList, parseAllowList, type AllowList } from "@/lib/config/allow-list";
import { classifyAddress, METADATA_HOSTS, type AddressKind } from "@/lib/security/network/addresses";

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

export type { AddressKind };
// The allow-list is the app's one parser (lib/config/allow-list.ts), shared with NOTIFICATION_PRIVATE_HOSTS.
export { emptyAllowList, parseAllowList, type AllowList };

export interface TargetPolicy {
  localMode: boolean;
  allowList: AllowList;
  /**
   * In local mode, the paths a loopback target may have (prefixes; the app's own webhook path by
   * default, from SANDBOX_LOOPBACK_PATHS): the published keys must not let anyone make the server
   * POST to whatever else listens on this machine. Undefined: any path.
   */
  loopbackPaths?: readonly string[];
  /**
   * In local mode, the ports a loopback target may use (the served sandbox: the app's own, where it
   * listens and where its public URL points): a published key must not reach another service on this
   * machine through the receiver's path. Undefined: any port.
   */
  loopbackPorts?: readonly number[];
}

/** What a loopback target's path may start with by default: the app's own webhook receiver. */
export const DEFAULT_LOOPBACK_PATHS: readonly string[] = ["/api/webhooks/financing/"];

export type TargetCheck = { ok: true } | { ok: false; reason: string };

export type Lookup = (hostname: string) => Promise<{ address: string; family: number }[]>;

// The address classification is the app's one policy (lib/security/network/addresses.ts), shared with the
// partner notifications; the sandbox adds its local mode and allow-list on top.
export { classifyAddress };

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
    const listed = allowListAllows(policy.allowList, host, address);
    if (listed) continue;
    if (kind === "loopback" && policy.localMode) {
      const refused = loopbackRefusal(parsed, policy);
      if (refused === undefined) continue;
      return { ok: false, reason: refused };
    }
    return {
      ok: false,
      reason: `the target resolves to a ${kind === "loopback" ? "loopback" : "private or reserved"} address (${address}), not allowed${kind === "loopback" ? " outside local mode" : ""} (see SANDBOX_ALLOWED_TARGETS)`,
    };
  }
  return { ok: true };
}

/** Why a loopback target is refused in local mode, or undefined when its port, path and query fit. */
function loopbackRefusal(target: URL, policy: TargetPolicy): string | undefined {
  const port = Number(target.port || (target.protocol === "https:" ? 443 : 80));
  if (policy.loopbackPorts !== undefined && !policy.loopbackPorts.includes(port)) {
    return `a loopback target must use this app's own port (${policy.loopbackPorts.join(" or ")}), not ${port} (see SANDBOX_LOOPBACK_PORTS)`;
  }
  if (policy.loopbackPaths === undefined) return undefined;
  if (!policy.loopbackPaths.some((prefix) => target.pathname.startsWith(prefix))) {
    return `a loopback target's path must start with ${policy.loopbackPaths.join(" or ")} (see SANDBOX_LOOPBACK_PATHS)`;
  }
  // The app's receiver takes its token in the path: a query only reaches something else.
  return target.search === "" ? undefined : "a loopback target on the receiver's path may not carry a query (see SANDBOX_LOOPBACK_PATHS)";
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

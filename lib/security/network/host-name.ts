/**
 * Whether a URL's host (as `new URL(…).hostname` gives it: lower-case, IPv4 in dotted decimal, IPv6
 * in brackets) is a plain host name or an IP literal. A host name is dot-separated labels of letters,
 * digits and inner hyphens (an international name in its `xn--` form), with no empty label: no
 * wildcard (`*.example.com`), no underscore, and no trailing dot (`example.com.`, the same host as
 * `example.com` to DNS but not to an origin or an address policy). Pure: pages, headers and the
 * server's checks share it.
 */

const LABEL = "[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?";
const HOST_NAME = new RegExp(`^${LABEL}(?:\\.${LABEL})*$`);
const IPV4 = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const IPV6 = /^\[[0-9a-f:.]+\]$/;

export function isHostNameOrIpLiteral(hostname: string): boolean {
  if (IPV6.test(hostname) || IPV4.test(hostname)) return true;
  return hostname.length <= 253 && HOST_NAME.test(hostname);
}

import { BlockList, isIP } from "node:net";

/**
 * An operator's list of hosts, addresses and CIDR ranges that may be reached although they are not
 * public (`partner.internal, 10.0.0.5, 192.168.0.0/16`): the sandbox's webhook targets
 * (SANDBOX_ALLOWED_TARGETS) and partners' notification endpoints on a private network
 * (NOTIFICATION_PRIVATE_HOSTS). A host name entry allows that name, whatever private address it
 * resolves to; an address or range allows those addresses, whatever name leads there.
 */
export interface AllowList {
  hosts: ReadonlySet<string>;
  addresses: BlockList;
  empty: boolean;
}

/** The list as written (comma- or space-separated); or the entry it cannot read. */
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

/** Whether the list names this host (as the URL names it, lower-case) or this address. */
export function allowListAllows(list: AllowList, host: string | undefined, address: string): boolean {
  if (host !== undefined && list.hosts.has(host)) return true;
  const family = isIP(address);
  return family !== 0 && list.addresses.check(address, family === 6 ? "ipv6" : "ipv4");
}

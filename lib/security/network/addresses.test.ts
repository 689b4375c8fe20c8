import { describe, expect, it } from "vitest";
import { parseEnv } from "@/lib/config/env";
import { checkDestinationUrl, checkResolvedAddresses, classifyAddress, notificationPolicy } from "./addresses";
import { parseAllowList } from "@/lib/config/allow-list";

const production = notificationPolicy("production");
const sandbox = notificationPolicy("sandbox");

/** The host an attacker's URL really names, once the URL parser has read it (numeric forms included). */
function hostOf(url: string): string {
  const checked = checkDestinationUrl(url, sandbox);
  if (!checked.ok) throw new Error(checked.reason);
  return checked.value.host;
}

describe("the address policy", () => {
  it.each([
    ["169.254.169.254", "link-local"], // cloud metadata
    ["169.254.0.1", "link-local"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local"],
    ["fd00:ec2::254", "link-local"], // AWS metadata over IPv6
    ["::ffff:169.254.169.254", "link-local"],
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["::1", "loopback"],
    ["[::1]", "loopback"],
    ["::ffff:127.0.0.1", "loopback"], // IPv4-mapped IPv6
    ["::ffff:7f00:1", "loopback"], // the same, in hex groups
    ["0:0:0:0:0:ffff:127.0.0.1", "loopback"],
    ["10.0.0.1", "private"],
    ["172.16.5.4", "private"],
    ["192.168.0.1", "private"],
    ["100.64.0.1", "private"], // carrier-grade NAT
    ["0.0.0.0", "private"],
    ["::", "private"],
    ["::ffff:10.1.2.3", "private"],
    ["fc00::1", "private"],
    ["fd12:3456::1", "private"],
    ["64:ff9b::a9fe:a9fe", "private"], // NAT64 of the metadata address
    ["ff02::1", "private"],
    ["224.0.0.1", "private"],
    ["::ffff:0:7f00:1", "loopback"], // IPv4-translated
    ["::ffff:0:169.254.169.254", "link-local"],
    ["::ffff:0:a00:1", "private"],
    ["2002:7f00:1::", "private"], // 6to4 of 127.0.0.1
    ["2002:a9fe:a9fe::1", "private"], // 6to4 of the metadata address
    ["2002:5db8:d822::1", "private"], // 6to4 of a public address: still through an unknown relay
    ["168.63.129.16", "link-local"], // Azure's wire server
    ["::ffff:168.63.129.16", "link-local"],
    ["64:ff9b:1::a9fe:a9fe", "private"],
    ["not-an-ip", "private"],
    ["93.184.216.34", "public"],
    ["2606:4700::1111", "public"],
  ])("%s is %s", (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it("reads decimal, hex, octal and short IPv4 forms as the address they name", () => {
    expect(hostOf("http://2130706433/")).toBe("127.0.0.1");
    expect(hostOf("http://0x7f000001/")).toBe("127.0.0.1");
    expect(hostOf("http://0x7f.1/")).toBe("127.0.0.1");
    expect(hostOf("http://017700000001/")).toBe("127.0.0.1");
    expect(hostOf("http://127.1/")).toBe("127.0.0.1");
    expect(hostOf("http://2852039166/")).toBe("169.254.169.254");
    expect(hostOf("http://[::ffff:127.0.0.1]/")).toBe("::ffff:7f00:1");
    for (const url of ["http://2130706433/", "http://0x7f.1/", "http://[::ffff:127.0.0.1]/", "http://2852039166/"]) {
      expect(checkResolvedAddresses([hostOf(url)], production).ok, url).toBe(false);
    }
  });

  it("production: https only, public addresses only, every resolved address checked", () => {
    expect(checkDestinationUrl("http://hooks.partner.example/n", production)).toMatchObject({
      ok: false,
      reason: expect.stringContaining("https"),
    });
    expect(checkDestinationUrl("https://hooks.partner.example/n", production).ok).toBe(true);
    expect(checkDestinationUrl("ftp://hooks.partner.example/n", production).ok).toBe(false);
    expect(checkDestinationUrl("https://user:pw@hooks.partner.example/n", production).ok).toBe(false);
    expect(checkDestinationUrl("https://metadata.google.internal/", production).ok).toBe(false);
    expect(checkResolvedAddresses(["203.0.113.10"], production).ok).toBe(true);
    expect(checkResolvedAddresses(["203.0.113.10", "10.0.0.7"], production).ok).toBe(false);
    expect(checkResolvedAddresses(["127.0.0.1"], production).ok).toBe(false);
    expect(checkResolvedAddresses([], production).ok).toBe(false);
  });

  it("the sandbox: http and loopback allowed (the test partner site is on 127.0.0.1), never private or link-local", () => {
    expect(checkDestinationUrl("http://127.0.0.1:3311/n", sandbox).ok).toBe(true);
    expect(checkResolvedAddresses(["127.0.0.1", "::1"], sandbox).ok).toBe(true);
    expect(checkResolvedAddresses(["10.0.0.7"], sandbox).ok).toBe(false);
    expect(checkResolvedAddresses(["169.254.169.254"], sandbox).ok).toBe(false);
    expect(checkResolvedAddresses(["::ffff:169.254.169.254"], sandbox).ok).toBe(false);
  });
});

describe("private partner hosts (NOTIFICATION_PRIVATE_HOSTS)", () => {
  const listed = (text: string) => {
    const parsed = parseAllowList(text);
    if (!parsed.ok) throw new Error(parsed.entry);
    return notificationPolicy("production", parsed.list);
  };

  it("are none by default: the configuration's policy refuses loopback and private addresses in production", () => {
    const configured = notificationPolicy("production", parseEnv({}).notifications.privateHosts);
    expect(checkResolvedAddresses(["127.0.0.1"], configured, "127.0.0.1").ok).toBe(false);
    expect(checkResolvedAddresses(["10.0.0.7"], configured, "hooks.partner.internal").ok).toBe(false);
    // The policy built without a list reads the same configuration.
    expect(checkResolvedAddresses(["127.0.0.1"], production, "127.0.0.1").ok).toBe(false);
  });

  it("allow the addresses and ranges listed, and nothing beside them", () => {
    const policy = listed("127.0.0.1, 10.20.0.0/16, fd12:3456::/32");
    expect(checkResolvedAddresses(["127.0.0.1"], policy).ok).toBe(true);
    expect(checkResolvedAddresses(["10.20.3.4"], policy).ok).toBe(true);
    expect(checkResolvedAddresses(["fd12:3456::9"], policy).ok).toBe(true);
    expect(checkResolvedAddresses(["127.0.0.2"], policy).ok).toBe(false);
    expect(checkResolvedAddresses(["10.21.0.1"], policy).ok).toBe(false);
    // One address outside the list refuses the destination, as before.
    expect(checkResolvedAddresses(["10.20.3.4", "192.168.1.1"], policy).ok).toBe(false);
    // Still https only in production.
    expect(checkDestinationUrl("http://127.0.0.1/n", policy).ok).toBe(false);
  });

  it("allow a host name listed to its private addresses, not another name resolving there", () => {
    const policy = listed("hooks.partner.internal");
    expect(checkResolvedAddresses(["10.0.0.7"], policy, "hooks.partner.internal").ok).toBe(true);
    expect(checkResolvedAddresses(["10.0.0.7"], policy, "elsewhere.internal").ok).toBe(false);
    expect(checkResolvedAddresses(["10.0.0.7"], policy).ok).toBe(false);
  });

  it("never allow link-local or metadata addresses, whatever is listed", () => {
    const policy = listed("169.254.0.0/16, fe80::/10, metadata.internal, 0.0.0.0/0");
    expect(checkResolvedAddresses(["169.254.169.254"], policy).ok).toBe(false);
    expect(checkResolvedAddresses(["::ffff:169.254.169.254"], policy).ok).toBe(false);
    expect(checkResolvedAddresses(["fe80::1"], policy).ok).toBe(false);
    expect(checkResolvedAddresses(["169.254.169.254"], policy, "metadata.internal").ok).toBe(false);
    expect(checkDestinationUrl("https://metadata.google.internal/", listed("metadata.google.internal")).ok).toBe(false);
  });
});

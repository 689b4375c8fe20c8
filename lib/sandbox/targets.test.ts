import { describe, expect, it } from "vitest";
import { checkTarget, classifyAddress, DEFAULT_LOOPBACK_PATHS, emptyAllowList, parseAllowList, redactUrl, type Lookup } from "./targets";

const local = { localMode: true, allowList: emptyAllowList() };
const remote = { localMode: false, allowList: emptyAllowList() };
const resolvesTo =
  (...addresses: string[]): Lookup =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
const noDns: Lookup = async () => {
  throw new Error("no DNS in this test");
};

describe("classifyAddress", () => {
  it.each([
    ["169.254.169.254", "link-local"],
    ["fe80::1", "link-local"],
    ["fd00:ec2::254", "link-local"],
    ["::ffff:169.254.169.254", "link-local"],
    ["::ffff:a9fe:a9fe", "link-local"],
    ["127.0.0.1", "loopback"],
    ["127.8.9.10", "loopback"],
    ["::1", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["0.0.0.0", "private"],
    ["100.64.0.1", "private"],
    ["fc00::1", "private"],
    ["fd12:3456::1", "private"],
    ["::", "private"],
    ["::ffff:10.0.0.1", "private"],
    ["172.32.0.1", "public"],
    ["203.0.113.10", "public"],
    ["2001:db8::1", "public"],
  ])("%s is %s", (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });
});

describe("checkTarget", () => {
  it("refuses link-local and metadata targets, whatever the mode or the allow-list", async () => {
    const allowAll = {
      localMode: true,
      allowList: (parseAllowList("0.0.0.0/0, ::/0, metadata.google.internal") as { ok: true; list: never }).list,
    };
    for (const url of [
      "http://169.254.169.254/latest/meta-data/",
      "http://[fe80::1]/",
      "http://[::ffff:169.254.169.254]/",
      "http://2852039166/",
      "http://metadata.google.internal/",
    ]) {
      await expect(checkTarget(url, allowAll, noDns)).resolves.toMatchObject({ ok: false });
    }
  });

  it("checks what a host name resolves to, every address of it", async () => {
    await expect(checkTarget("https://hooks.partner.example/x", remote, resolvesTo("203.0.113.10"))).resolves.toEqual({ ok: true });
    await expect(checkTarget("https://hooks.partner.example/x", remote, resolvesTo("203.0.113.10", "10.0.0.7"))).resolves.toMatchObject({
      ok: false,
    });
    await expect(checkTarget("https://sneaky.example/x", local, resolvesTo("169.254.169.254"))).resolves.toMatchObject({ ok: false });
    await expect(checkTarget("https://nowhere.example/x", local, noDns)).resolves.toMatchObject({
      ok: false,
      reason: expect.stringContaining("did not resolve"),
    });
  });

  it("allows loopback in local mode only", async () => {
    await expect(checkTarget("http://127.0.0.1:3000/api/webhooks/financing/token", local, noDns)).resolves.toEqual({ ok: true });
    await expect(checkTarget("http://[::1]:3000/", local, noDns)).resolves.toEqual({ ok: true });
    await expect(checkTarget("http://localhost:3000/", local, resolvesTo("127.0.0.1", "::1"))).resolves.toEqual({ ok: true });
    await expect(checkTarget("http://127.0.0.1:3000/", remote, noDns)).resolves.toMatchObject({ ok: false });
  });

  it("refuses private addresses unless allow-listed by address, range or host name", async () => {
    await expect(checkTarget("http://10.0.0.7/hook", local, noDns)).resolves.toMatchObject({ ok: false });
    await expect(checkTarget("http://192.168.1.20/hook", local, noDns)).resolves.toMatchObject({ ok: false });
    const list = parseAllowList("10.0.0.0/8, partner.internal");
    if (!list.ok) throw new Error("the allow-list should parse");
    const allowed = { localMode: false, allowList: list.list };
    await expect(checkTarget("http://10.0.0.7/hook", allowed, noDns)).resolves.toEqual({ ok: true });
    await expect(checkTarget("http://partner.internal/hook", allowed, resolvesTo("192.168.5.5"))).resolves.toEqual({ ok: true });
    await expect(checkTarget("http://192.168.1.20/hook", allowed, noDns)).resolves.toMatchObject({ ok: false });
  });

  it("refuses anything but http(s)", async () => {
    for (const url of ["ftp://203.0.113.10/", "file:///etc/passwd", "gopher://203.0.113.10/", "not a url"]) {
      await expect(checkTarget(url, local, noDns)).resolves.toMatchObject({ ok: false });
    }
  });
});

describe("parseAllowList", () => {
  it("reads hosts, addresses and ranges; names the entry it cannot read", () => {
    expect(parseAllowList("")).toMatchObject({ ok: true, list: { empty: true } });
    expect(parseAllowList("a.example, 10.0.0.1 fd00::/8")).toMatchObject({ ok: true, list: { empty: false } });
    expect(parseAllowList("10.0.0.0/33")).toEqual({ ok: false, entry: "10.0.0.0/33" });
    expect(parseAllowList("http://x.example")).toEqual({ ok: false, entry: "http://x.example" });
  });
});

describe("redactUrl", () => {
  it("keeps the origin and short lower-case path words, hides tokens, queries and credentials", () => {
    expect(redactUrl("https://app.example/api/webhooks/financing/Xy7_secret-token-0123456789")).toBe(
      "https://app.example/api/webhooks/financing/…",
    );
    expect(redactUrl("http://user:pass@127.0.0.1:3000/hook?sig=abc")).toBe("http://127.0.0.1:3000/hook?…");
    expect(redactUrl("https://app.example/")).toBe("https://app.example/");
  });

  it("limits loopback targets to the app's own webhook path on the served sandbox's default set-up", async () => {
    const served = { localMode: true, allowList: emptyAllowList(), loopbackPaths: DEFAULT_LOOPBACK_PATHS };
    await expect(checkTarget("http://127.0.0.1:3000/api/webhooks/financing/token", served, noDns)).resolves.toEqual({ ok: true });
    await expect(checkTarget("http://localhost:3000/api/webhooks/financing/t", served, resolvesTo("127.0.0.1"))).resolves.toEqual({
      ok: true,
    });
    for (const url of [
      "http://127.0.0.1:6379/",
      "http://127.0.0.1:9200/_shutdown",
      "http://[::1]:8080/admin",
      "http://127.0.0.1:3000/api/webhooks/other",
    ]) {
      await expect(checkTarget(url, served, noDns), url).resolves.toMatchObject({
        ok: false,
        reason: expect.stringContaining("SANDBOX_LOOPBACK_PATHS"),
      });
    }
    // Public targets are not concerned, and the allow-list still allows a listed loopback address anywhere.
    await expect(checkTarget("https://hooks.partner.example/x", served, resolvesTo("203.0.113.10"))).resolves.toEqual({ ok: true });
    const listed = parseAllowList("127.0.0.1");
    if (!listed.ok) throw new Error("unreadable list");
    await expect(checkTarget("http://127.0.0.1:6379/", { ...served, allowList: listed.list }, noDns)).resolves.toEqual({ ok: true });
  });

  it("limits loopback targets to the app's own ports, and refuses a query, on the served sandbox", async () => {
    const served = { localMode: true, allowList: emptyAllowList(), loopbackPaths: DEFAULT_LOOPBACK_PATHS, loopbackPorts: [3000, 443] };
    await expect(checkTarget("http://127.0.0.1:3000/api/webhooks/financing/token", served, noDns)).resolves.toEqual({ ok: true });
    await expect(checkTarget("https://localhost/api/webhooks/financing/token", served, resolvesTo("::1"))).resolves.toEqual({ ok: true });
    // Another service on this machine, under the receiver's own path.
    for (const url of [
      "http://127.0.0.1:9200/api/webhooks/financing/x",
      "http://[::1]:8080/api/webhooks/financing/x",
      "http://127.0.0.1/api/webhooks/financing/x",
    ]) {
      await expect(checkTarget(url, served, noDns), url).resolves.toMatchObject({
        ok: false,
        reason: expect.stringContaining("SANDBOX_LOOPBACK_PORTS"),
      });
    }
    await expect(checkTarget("http://127.0.0.1:3000/api/webhooks/financing/x?next=/admin", served, noDns)).resolves.toMatchObject({
      ok: false,
      reason: expect.stringContaining("query"),
    });
    // Public targets keep any port and query.
    await expect(checkTarget("https://hooks.partner.example:8443/x?a=1", served, resolvesTo("203.0.113.10"))).resolves.toEqual({
      ok: true,
    });
  });
});

import { describe, expect, it } from "vitest";
import { localRedirectTarget } from "./redirect-target";

describe("a redirect target", () => {
  it.each([
    ["/", "/"],
    ["/admin/operations?page=2#top", "/admin/operations?page=2#top"],
    ["/caf\u00e9", "/caf%C3%A9"],
    ["/reise/\u65c5\u884c?q=\u20ac", "/reise/%E6%97%85%E8%A1%8C?q=%E2%82%AC"],
    ["/a/../b", "/b"],
  ])("%j is used as %j", (raw, target) => {
    expect(localRedirectTarget(raw)).toBe(target);
  });

  it.each([
    ["CR/LF (header splitting)", "/admin\r\nSet-Cookie: x=1"],
    ["a line feed the URL parser would drop", "/ad\nmin"],
    ["a tab", "/\t/evil.example"],
    ["a C1 control", "/a\u0085b"],
    ["a lone surrogate", "/\ud800"],
    ["protocol-relative", "//evil.example/"],
    ["protocol-relative with a backslash", "/\\evil.example/"],
    ["an absolute URL of another origin", "https://evil.example/"],
    ["a scheme", "javascript:alert(1)"],
    ["a relative path", "admin"],
    ["empty", ""],
    ["too long", `/${"a".repeat(2001)}`],
    ["not a string", 42],
  ])("refuses %s", (_name, raw) => {
    expect(localRedirectTarget(raw)).toBeUndefined();
  });

  it("keeps a target under the given path", () => {
    expect(localRedirectTarget("/admin", { under: "/admin" })).toBe("/admin");
    expect(localRedirectTarget("/admin/operations", { under: "/admin" })).toBe("/admin/operations");
    expect(localRedirectTarget("/admin?agency=2", { under: "/admin" })).toBe("/admin?agency=2");
    expect(localRedirectTarget("/administrator", { under: "/admin" })).toBeUndefined();
    expect(localRedirectTarget("/admin/../checkout", { under: "/admin" })).toBeUndefined();
  });
});

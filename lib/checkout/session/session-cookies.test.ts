import { describe, expect, it } from "vitest";
import { sessionCookieOptions } from "./session-cookies";

describe("sessionCookieOptions", () => {
  const at = { embedded: false, secure: true, maxAge: 60 };

  it("first-party: httpOnly, Lax, for the session's pages only", () => {
    expect(sessionCookieOptions("cs_1", at)).toEqual({ path: "/checkout/cs_1", maxAge: 60, httpOnly: true, secure: true, sameSite: "lax" });
  });

  it("in a partner's frame over https: SameSite=None and partitioned (CHIPS)", () => {
    expect(sessionCookieOptions("cs_1", { ...at, embedded: true })).toMatchObject({ sameSite: "none", secure: true, partitioned: true });
  });

  it("in a frame over plain http: Lax and not partitioned, since None needs Secure", () => {
    const options = sessionCookieOptions("cs_1", { embedded: true, secure: false, maxAge: 0 });
    expect(options).toEqual({ path: "/checkout/cs_1", maxAge: 0, httpOnly: true, secure: false, sameSite: "lax" });
  });
});

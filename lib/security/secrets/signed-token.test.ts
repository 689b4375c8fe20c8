import { describe, expect, it } from "vitest";
import { parseKeyring } from "@/lib/config/keyring";
import { openToken, signToken } from "./signed-token";

/* Values handed out and taken back unaltered: signed per purpose and binding, verified across a key rotation. */

const k1 = parseKeyring(`k1:${Buffer.alloc(32, 1).toString("base64")}`);
const k2 = parseKeyring(`k2:${Buffer.alloc(32, 2).toString("base64")},k1:${Buffer.alloc(32, 1).toString("base64")}`);
const k2Only = parseKeyring(`k2:${Buffer.alloc(32, 2).toString("base64")}`);

describe("signed tokens", () => {
  it("open with the payload for the same purpose and binding, and for nothing else", () => {
    const token = signToken(k1, "list", "cGF5bG9hZA", "partner-a");
    expect(openToken(k1, "list", token, "partner-a")).toBe("cGF5bG9hZA");
    expect(openToken(k1, "list", token, "partner-b")).toBeUndefined();
    expect(openToken(k1, "feed", token, "partner-a")).toBeUndefined();
    expect(openToken(k1, "list", token.replace("cGF5bG9hZA", "cGF5bG9hZB"), "partner-a")).toBeUndefined();
    for (const broken of ["", ".", "cGF5bG9hZA", "cGF5bG9hZA.", `${token}x`, `${token.slice(0, -1)}`, `.${token.split(".")[1]}`]) {
      expect(openToken(k1, "list", broken, "partner-a"), broken).toBeUndefined();
    }
  });

  it("still open after a rotation while the old key is listed, and no longer once it is dropped", () => {
    const old = signToken(k1, "list", "cGF5bG9hZA", "partner-a");
    expect(openToken(k2, "list", old, "partner-a")).toBe("cGF5bG9hZA");
    expect(openToken(k2Only, "list", old, "partner-a")).toBeUndefined();
    expect(openToken(k2, "list", signToken(k2, "list", "eA", "p"), "p")).toBe("eA");
  });
});

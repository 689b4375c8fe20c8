import { describe, expect, it } from "vitest";
import { isSealed, needsReseal, openWith, sealedKeyId, sealWith, SecretOpenError } from "./secret-box";
import { parseKeyring } from "@/lib/config/keyring";

const K1 = `k1:${Buffer.alloc(32, 1).toString("base64")}`;
const K2 = `k2:${Buffer.alloc(32, 2).toString("base64url")}`;
const OTHER_K1 = `k1:${Buffer.alloc(32, 9).toString("base64")}`;
const SECRET = "fk_live_partner_key_0123456789";

describe("sealing secrets at rest", () => {
  it("round-trips, under the first key, in the enc:v1 format, never containing the plaintext", () => {
    const ring = parseKeyring(`${K2},${K1}`);
    const sealed = sealWith(ring, SECRET);
    expect(sealed).toMatch(/^enc:v1:k2:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain(SECRET);
    expect(isSealed(sealed)).toBe(true);
    expect(sealedKeyId(sealed)).toBe("k2");
    expect(openWith(ring, sealed)).toBe(SECRET);
    // A fresh IV each time: the same secret never seals to the same text.
    expect(sealWith(ring, SECRET)).not.toBe(sealed);
    expect(openWith(ring, sealWith(ring, ""))).toBe("");
    expect(openWith(ring, sealWith(ring, "ñ€😀"))).toBe("ñ€😀");
  });

  it("fails with the wrong key under the same id", () => {
    const sealed = sealWith(parseKeyring(K1), SECRET);
    expect(() => openWith(parseKeyring(OTHER_K1), sealed)).toThrow(SecretOpenError);
  });

  it("fails with a key id the ring does not list, naming the id only", () => {
    const sealed = sealWith(parseKeyring(K2), SECRET);
    expect(() => openWith(parseKeyring(K1), sealed)).toThrow(/sealed under the key "k2", which SECRETS_KEYS does not list/);
  });

  it("fails on a tampered ciphertext, IV, tag or key id", () => {
    const ring = parseKeyring(`${K1},${K2}`);
    const sealed = sealWith(ring, SECRET);
    const [prefix, version, keyId, iv, body] = sealed.split(":") as [string, string, string, string, string];
    const flip = (text: string, at: number) => {
      const bytes = Buffer.from(text, "base64url");
      bytes[at] = bytes[at]! ^ 1;
      return bytes.toString("base64url");
    };
    const variants = [
      [prefix, version, keyId, iv, flip(body, 0)], // ciphertext
      [prefix, version, keyId, iv, flip(body, Buffer.from(body, "base64url").length - 1)], // tag
      [prefix, version, keyId, flip(iv, 0), body], // IV
      [prefix, version, "k2", iv, body], // relabelled with the other key's id
      [prefix, version, keyId, iv, body.slice(0, 10)], // truncated
      [prefix, version, keyId, iv], // malformed
    ];
    for (const parts of variants) expect(() => openWith(ring, parts.join(":"))).toThrow(SecretOpenError);
  });

  it("binds a ciphertext to its context (column and row)", () => {
    const ring = parseKeyring(K1);
    const sealed = sealWith(ring, SECRET, "partners.financing_api_key:agency-a");
    expect(openWith(ring, sealed, "partners.financing_api_key:agency-a")).toBe(SECRET);
    expect(() => openWith(ring, sealed, "partners.financing_api_key:agency-b")).toThrow(SecretOpenError);
    expect(() => openWith(ring, sealed, "partners.signing_secret:agency-a")).toThrow(SecretOpenError);
  });

  it("rotates: a new first key seals, the old one still opens, and what it sealed needs resealing", () => {
    const before = parseKeyring(K1);
    const old = sealWith(before, SECRET);
    const during = parseKeyring(`${K2},${K1}`);
    expect(openWith(during, old)).toBe(SECRET);
    expect(needsReseal(during, old)).toBe(true);
    const resealed = sealWith(during, openWith(during, old));
    expect(needsReseal(during, resealed)).toBe(false);
    const after = parseKeyring(K2);
    expect(openWith(after, resealed)).toBe(SECRET);
    expect(() => openWith(after, old)).toThrow(SecretOpenError);
  });

  it("returns legacy plaintext as it is, and says it needs sealing", () => {
    const ring = parseKeyring(K1);
    expect(openWith(ring, "whsec_legacyplaintext")).toBe("whsec_legacyplaintext");
    expect(isSealed("whsec_legacyplaintext")).toBe(false);
    expect(needsReseal(ring, "whsec_legacyplaintext")).toBe(true);
  });
});

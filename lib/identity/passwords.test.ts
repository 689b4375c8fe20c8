import { describe, expect, it } from "vitest";
import { dummyPasswordHash, hashPassword, verifyPassword } from "./passwords";

describe("staff passwords", () => {
  it("are stored as scrypt$N$r$p$salt$hash with a 16-byte salt, and verify", async () => {
    const stored = await hashPassword("correct horse battery staple");
    const [scheme, n, r, p, salt, hash] = stored.split("$");
    expect([scheme, n, r, p]).toEqual(["scrypt", "131072", "8", "1"]);
    expect(Buffer.from(salt!, "base64")).toHaveLength(16);
    expect(Buffer.from(hash!, "base64").length).toBeGreaterThanOrEqual(32);
    expect(stored).not.toContain("correct horse");
    await expect(verifyPassword("correct horse battery staple", stored)).resolves.toBe(true);
  });

  it("refuse a wrong password, another's hash and a malformed hash", async () => {
    const stored = await hashPassword("aurora-staff-demo");
    await expect(verifyPassword("aurora-staff-demo ", stored)).resolves.toBe(false);
    await expect(verifyPassword("Aurora-staff-demo", stored)).resolves.toBe(false);
    await expect(verifyPassword("aurora-staff-demo", await hashPassword("grupo-staff-demo"))).resolves.toBe(false);
    await expect(verifyPassword("aurora-staff-demo", "")).resolves.toBe(false);
    await expect(verifyPassword("aurora-staff-demo", "plain-text-password")).resolves.toBe(false);
    await expect(verifyPassword("aurora-staff-demo", stored.replace("$131072$", "$1000$"))).resolves.toBe(false);
  });

  it("salt every hash, so the same password never gives the same hash", async () => {
    const [a, b] = await Promise.all([hashPassword("same"), hashPassword("same")]);
    expect(a).not.toBe(b);
    await expect(verifyPassword("same", a)).resolves.toBe(true);
    await expect(verifyPassword("same", b)).resolves.toBe(true);
  });

  it("keep a dummy hash for unknown e-mails that nothing matches", async () => {
    const dummy = await dummyPasswordHash();
    expect(dummy).toMatch(/^scrypt\$131072\$8\$1\$/);
    await expect(verifyPassword("", dummy)).resolves.toBe(false);
    expect(await dummyPasswordHash()).toBe(dummy);
  });
});

import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "@/lib/db";
import { partners, staffUsers } from "@/lib/db/schema";
import { openWith, sealWith } from "@/lib/security/secrets/secret-box";
import { parseKeyring } from "@/lib/config/keyring";
import { resealTotpSecrets } from "./totp-secret-store";

const key = (fill: number) => Buffer.alloc(32, fill).toString("base64");
const K1 = parseKeyring(`k1:${key(1)}`);
const K2_K1 = parseKeyring(`k2:${key(2)},k1:${key(1)}`);
const K2 = parseKeyring(`k2:${key(2)}`);
const K3 = parseKeyring(`k3:${key(3)}`);
const CONTEXT = "staff_users.totp_secret";
const SECRET = "JBSWY3DPEHPK3PXP";

let database: Database;

beforeEach(async () => {
  database = await openDatabase({ dataDir: "memory://" });
  await database.db.insert(partners).values({ id: "agency-a", name: "Agency A", allowedOrigins: [] });
});
afterEach(async () => {
  await database.close();
});

async function member(id: string, totpSecret: string | null) {
  await database.db
    .insert(staffUsers)
    .values({ id, partnerId: "agency-a", role: "agent", email: `${id}@agency-a.example`, name: id, totpSecret });
}

async function storedSecret(id: string): Promise<string | null> {
  const [row] = await database.db.select({ totpSecret: staffUsers.totpSecret }).from(staffUsers).where(eq(staffUsers.id, id));
  return row!.totpSecret;
}

describe("staff TOTP secrets through a SECRETS_KEYS rotation", () => {
  it("are sealed again under the new first key at start, so the old key can then be dropped", async () => {
    await member("sealed-k1", sealWith(K1, SECRET, CONTEXT));
    await member("plaintext", SECRET);
    await member("not-enrolled", null);

    expect(await resealTotpSecrets(database.db, K2_K1)).toEqual({ resealed: 2, unreadable: 0 });
    for (const id of ["sealed-k1", "plaintext"]) {
      const stored = (await storedSecret(id))!;
      expect(stored).toMatch(/^enc:v1:k2:/);
      // Opens with the new key alone: k1 can go.
      expect(openWith(K2, stored, CONTEXT)).toBe(SECRET);
    }
    expect(await storedSecret("not-enrolled")).toBeNull();
    // Already under the current key: nothing to do.
    expect(await resealTotpSecrets(database.db, K2_K1)).toEqual({ resealed: 0, unreadable: 0 });
  });

  it("counts a secret no listed key opens, leaves it as it was, and goes on with the others", async () => {
    const lost = sealWith(K3, SECRET, CONTEXT);
    await member("lost-key", lost);
    await member("sealed-k1", sealWith(K1, SECRET, CONTEXT));

    expect(await resealTotpSecrets(database.db, K2_K1)).toEqual({ resealed: 1, unreadable: 1 });
    expect(await storedSecret("lost-key")).toBe(lost);
    expect(await storedSecret("sealed-k1")).toMatch(/^enc:v1:k2:/);
  });
});

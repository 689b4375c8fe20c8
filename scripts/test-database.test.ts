import { describe, expect, it } from "vitest";
import { findTestDatabase, LOCAL_TEST_DATABASE_URL, queryOnce } from "./test-database.mjs";

/** A probe that records what it was asked and answers as told. */
function probe(answers: boolean) {
  const asked: string[] = [];
  return {
    asked,
    run: async (url: string) => {
      asked.push(url);
      if (!answers) throw new Error("connect ECONNREFUSED 127.0.0.1:5432");
    },
  };
}

describe("findTestDatabase", () => {
  it("takes TEST_DATABASE_URL as given, without probing anything", async () => {
    const p = probe(false);
    const given = "postgres://ci@db.internal:5433/checks";
    expect(await findTestDatabase({ TEST_DATABASE_URL: given }, p.run)).toMatchObject({ url: given });
    expect(p.asked).toEqual([]);
  });

  it("set and empty, runs without PostgreSQL (and says so)", async () => {
    const p = probe(true);
    const found = await findTestDatabase({ TEST_DATABASE_URL: "" }, p.run);
    expect(found.url).toBeUndefined();
    expect(found.reason).toContain("skipped");
    expect(p.asked).toEqual([]);
  });

  it("unset, uses the local server when it answers", async () => {
    const p = probe(true);
    expect(await findTestDatabase({}, p.run)).toMatchObject({ url: LOCAL_TEST_DATABASE_URL });
    expect(p.asked).toEqual([LOCAL_TEST_DATABASE_URL]);
  });

  it("unset and no server: no URL, and a reason that says what was tried and how to run them", async () => {
    const found = await findTestDatabase({}, probe(false).run);
    expect(found.url).toBeUndefined();
    expect(found.reason).toContain(LOCAL_TEST_DATABASE_URL);
    expect(found.reason).toContain("ECONNREFUSED");
    expect(found.reason).toContain("set TEST_DATABASE_URL");
  });

  it("probes for real: a port nothing listens on is refused at once, not waited on", async () => {
    const started = Date.now();
    await expect(queryOnce("postgres://postgres@127.0.0.1:1/test", 2)).rejects.toThrow(/ECONNREFUSED/);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it.runIf(process.env.TEST_DATABASE_URL)("probes for real: the test server answers", async () => {
    await expect(queryOnce(process.env.TEST_DATABASE_URL!, 3)).resolves.toBeUndefined();
  });
});

import { describe, expect, it } from "vitest";
import { sameSecret } from "./same-secret";

describe("sameSecret", () => {
  it("is true for the same secret only, whatever the lengths", () => {
    expect(sameSecret("s3cret-token", "s3cret-token")).toBe(true);
    expect(sameSecret("s3cret-tokem", "s3cret-token")).toBe(false);
    expect(sameSecret("s3cret", "s3cret-token")).toBe(false);
    expect(sameSecret("", "s3cret-token")).toBe(false);
  });
});

import { describe, expect, it } from "vitest";
import { inertText, maskEmail } from "./inert-text";

describe("inertText", () => {
  it("breaks what a mail client would make a link of, and reads the same", () => {
    const out = inertText("See https://evil.example or mail help@evil.example");
    expect(out).not.toMatch(/https:\/\/|evil\.example|help@evil/);
    expect(out.replaceAll("\u200D", "")).toBe("See https://evil.example or mail help@evil.example");
    expect(inertText("Lisboa & Sintra, 4 noches")).toBe("Lisboa & Sintra, 4 noches");
  });
});

describe("maskEmail", () => {
  it("keeps the first character and the domain only", () => {
    expect(maskEmail("ana.garcia@example.com")).toBe("a***@example.com");
    expect(maskEmail(" ANA@Example.com ")).toBe("a***@example.com");
    expect(maskEmail("not-an-address")).toBe("***");
  });
});

import { describe, expect, it } from "vitest";
import { hashPassword } from "./passwords";
import { passwordProblem, reusesPrevious } from "./password-policy";

/*
 * A new password is judged with what an attacker knows of its owner: their name, their e-mail, their
 * agency's name and their previous password. Repeats, sequences and keyboard rows are refused, however long.
 */

const LUCIA = { name: "Lucía Pérez", email: "lucia@viajes-aurora.example", organisation: "Viajes Aurora (demo)" };

describe("password strength", () => {
  it("refuses repetition, sequence and keyboard patterns, however long", async () => {
    for (const password of ["aaaaaaaaaaaa", "123123123123", "qwertyuiopasdf", "abcdefghijklmnop", "1234567890123"]) {
      expect(await passwordProblem(password, LUCIA), password).toBe("weak");
    }
  });

  it("refuses the owner's own name, e-mail or agency with a year, whatever the separators", async () => {
    for (const password of ["viajesaurora2026", "Viajes-Aurora-2026!", "lucia-perez-2026", "lucia@viajes-aurora"]) {
      expect(await passwordProblem(password, LUCIA), password).toBe("weak");
    }
    // The same passwords are long and unusual for someone else.
    expect(await passwordProblem("Viajes-Aurora-2026!", { name: "Marcos", email: "m@grupo.example", organisation: "Grupo" })).toBe(
      undefined,
    );
  });

  it("refuses the previous password with a character or two more", async () => {
    const previous = "another-strong-passphrase-42";
    expect(await passwordProblem("another-strong-passphrase-422", { ...LUCIA, previous })).toBe("weak");
    expect(await passwordProblem("another-strong-passphrase-43", { ...LUCIA, previous })).toBe("weak");
    const stored = await hashPassword(previous);
    expect(await reusesPrevious("another-strong-passphrase-422", stored)).toBe(true);
    expect(await reusesPrevious("another-strong-passphrase-42!?", stored)).toBe(true);
    expect(await reusesPrevious("a-fresh-strong-passphrase-77", stored)).toBe(false);
  });

  it("accepts a long unusual passphrase, and says too short or common first", async () => {
    expect(await passwordProblem("a-fresh-strong-passphrase-77", LUCIA)).toBeUndefined();
    expect(await passwordProblem("mañana-verde-ciruela", LUCIA)).toBeUndefined();
    expect(await passwordProblem("short", LUCIA)).toBe("too_short");
    expect(await passwordProblem("passwordpassword", LUCIA)).toBe("common");
  });
});

import { describe, expect, it } from "vitest";
import { mailFailure } from "./failure";

describe("what a failed e-mail send logs", () => {
  it("its code, the SMTP reply code and command, never the reply's words (they name the recipient)", () => {
    const error = Object.assign(
      new Error(
        "Can't send mail - all recipients were rejected: 550 5.1.1 <eulalia.quintanilla@example.net>: User unknown (Eulalia Quintanilla)",
      ),
      { code: "EENVELOPE", responseCode: 550, command: "RCPT TO", response: "550 5.1.1 Eulalia Quintanilla unknown" },
    );
    const logged = mailFailure(error);
    expect(logged).toEqual({ code: "EENVELOPE", responseCode: 550, command: "RCPT TO" });
    expect(JSON.stringify(logged)).not.toMatch(/Eulalia|quintanilla/i);
  });

  it("nothing it cannot vouch for", () => {
    expect(mailFailure("boom")).toEqual({});
    expect(mailFailure({ code: "Eulalia Quintanilla", command: "RCPT TO <a@b.es>", responseCode: "550" })).toEqual({});
  });
});

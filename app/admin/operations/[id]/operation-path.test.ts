import { describe, expect, it } from "vitest";
import { operationPath } from "./operation-path";

describe("operationPath", () => {
  it("passes a short booking reference on, encoded", () => {
    expect(operationPath("op 1", { ref: "BK/42" })).toEqual({
      refHint: "BK/42",
      refQuery: "?ref=BK%2F42",
      path: "/admin/operations/op%201?ref=BK%2F42",
    });
  });

  it("drops a reference given twice or too long", () => {
    for (const ref of [["a", "b"], "x".repeat(201), undefined]) {
      expect(operationPath("op_1", { ref })).toEqual({ refHint: undefined, refQuery: "", path: "/admin/operations/op_1" });
    }
  });
});

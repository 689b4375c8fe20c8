import { describe, expect, it } from "vitest";
import { csvCell, toCsv } from "./csv";

describe("CSV export", () => {
  it("quotes every value and doubles quotes inside", () => {
    expect(csvCell("Lisboa, 4 noches")).toBe('"Lisboa, 4 noches"');
    expect(csvCell('Hotel "Tejo"')).toBe('"Hotel ""Tejo"""');
    expect(csvCell("two\nlines")).toBe('"two\nlines"');
    expect(csvCell(42)).toBe('"42"');
    expect(csvCell(null)).toBe('""');
    expect(csvCell(undefined)).toBe('""');
  });

  it("defuses cells a spreadsheet would run as formulas", () => {
    expect(csvCell('=HYPERLINK("http://evil")')).toBe('"\'=HYPERLINK(""http://evil"")"');
    expect(csvCell("+34 600")).toBe('"\'+34 600"');
    expect(csvCell("-1+1")).toBe('"\'-1+1"');
    expect(csvCell("@SUM(A1)")).toBe('"\'@SUM(A1)"');
    expect(csvCell("\t=1")).toBe('"\'\t=1"');
    expect(csvCell("\r=1")).toBe('"\'\r=1"');
    expect(csvCell("Ana = Ana")).toBe('"Ana = Ana"');
  });

  it("writes a UTF-8 BOM, a header and CRLF lines", () => {
    const csv = toCsv(
      ["a", "b"],
      [
        ["García", 1],
        ["=x", null],
      ],
    );
    expect(csv).toBe('\uFEFF"a","b"\r\n"García","1"\r\n"\'=x",""\r\n');
  });
});

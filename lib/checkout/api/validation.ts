import type { z } from "zod";

/**
 * The checkout sessions API's words for what a schema refuses: every field error it answers reads
 * as this API's (`must be at least 1`), never as the validator's own (`Too small: expected number
 * to be >=1`), whichever schema refused it. A message a schema states itself (`must be an http or
 * https URL`) wins: zod asks this map only for those it would otherwise word itself.
 */

export interface FieldError {
  field: string;
  message: string;
}

const FORMATS: Record<string, string> = {
  email: "an e-mail address",
  url: "a URL",
  datetime: "a date and time in ISO 8601 with a time zone (2026-05-01T00:00:00Z)",
  date: "a date (yyyy-mm-dd)",
  uuid: "a UUID",
};

const KINDS: Record<string, string> = { int: "a whole number", number: "a number", bigint: "a whole number" };

function expectedOf(expected: string): string {
  if (expected in KINDS) return KINDS[expected]!;
  if (expected === "array") return "a list";
  if (expected === "object") return "an object";
  if (expected === "boolean") return "true or false";
  return `a ${expected}`;
}

function bound(issue: { origin: string; inclusive?: boolean; exact?: boolean }, value: number | bigint, side: "least" | "most"): string {
  const n = Number(value);
  const count = (unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`;
  const exactly = issue.exact ? "exactly" : issue.inclusive === false ? (side === "least" ? "more than" : "less than") : `at ${side}`;
  if (issue.origin === "string") return `must have ${exactly} ${count("character")}`;
  if (issue.origin === "array" || issue.origin === "set") return `must have ${exactly} ${count("item")}`;
  if (issue.origin === "date") return `must be ${exactly.replace("more than", "after").replace("less than", "before")} ${String(value)}`;
  return `must be ${exactly} ${n}`;
}

/** The API's message for one issue a schema did not word itself. */
export function apiIssueMessage(issue: z.core.$ZodRawIssue): string {
  switch (issue.code) {
    case "invalid_type":
      return issue.input === undefined ? "is required" : `must be ${expectedOf(issue.expected)}`;
    case "too_small":
      return bound(issue, issue.minimum, "least");
    case "too_big":
      return bound(issue, issue.maximum, "most");
    case "invalid_format":
      return issue.format === "regex" ? "is not in the expected format" : `must be ${FORMATS[issue.format] ?? `a valid ${issue.format}`}`;
    case "not_multiple_of":
      return `must be a multiple of ${issue.divisor}`;
    case "invalid_value":
      return issue.values.length === 1
        ? `must be ${JSON.stringify(issue.values[0])}`
        : `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
    case "unrecognized_keys":
      return "is not a field of this request";
    default:
      return "is not valid";
  }
}

const errorMap: z.core.$ZodErrorMap = (issue) => apiIssueMessage(issue);

/** `schema.safeParse(input)`, its refusals in the API's words. */
export function parseForApi<S extends z.ZodType>(schema: S, input: unknown): z.ZodSafeParseResult<z.output<S>> {
  return schema.safeParse(input, { error: errorMap });
}

/** Each refused field once, by its path; an unknown key is named as the field it is. */
export function fieldErrorsOf(issues: readonly z.core.$ZodIssue[], whole = "(body)"): FieldError[] {
  return issues.flatMap((issue) =>
    issue.code === "unrecognized_keys"
      ? issue.keys.map((key) => ({ field: [...issue.path.map(String), key].join("."), message: issue.message }))
      : [{ field: issue.path.map(String).join(".") || whole, message: issue.message }],
  );
}

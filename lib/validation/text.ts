import { z } from "zod";

/**
 * What text from outside may hold before it is stored, shown or sent on: no C0 control character
 * (U+0000 to U+001F) nor DEL, except tab and line breaks where the text is multi-line, and no lone
 * UTF-16 surrogate. PostgreSQL refuses a NUL in text and JSON, and a lone surrogate in JSON; neither
 * is anything a person typed. Pure: the browser, the sandbox and tests use it too.
 */

export interface TextRules {
  /** Tab, line feed and carriage return allowed (a textarea posts line breaks as CR LF). */
  multiline?: boolean;
}

export type TextProblem = "control_character" | "lone_surrogate";

export const TEXT_PROBLEM_MESSAGES: Record<TextProblem, string> = {
  control_character: "must not contain control characters",
  lone_surrogate: "must be well-formed Unicode text",
};

const CONTROL = /[\u0000-\u001f\u007f]/;
const CONTROL_BUT_LINE_BREAKS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** What is wrong with the text, or undefined when it is acceptable. */
export function textProblem(value: string, rules: TextRules = {}): TextProblem | undefined {
  if ((rules.multiline ? CONTROL_BUT_LINE_BREAKS : CONTROL).test(value)) return "control_character";
  if (LONE_SURROGATE.test(value)) return "lone_surrogate";
  return undefined;
}

export function isSafeText(value: string, rules: TextRules = {}): boolean {
  return textProblem(value, rules) === undefined;
}

/**
 * The zod check for a string field: one issue naming the problem, on the field's path. Use it as
 * `z.string().check(safeText())` (or `safeText({ multiline: true })`), before any trimming, so a
 * control character at either end is refused rather than silently cut.
 */
export function safeText(rules: TextRules = {}) {
  return z.superRefine<string>((value, ctx) => {
    const problem = textProblem(value, rules);
    if (problem) ctx.addIssue({ code: "custom", message: TEXT_PROBLEM_MESSAGES[problem], input: value });
  });
}

/** A string of safe text: `z.string()` with `safeText` applied. */
export function safeString(rules: TextRules = {}) {
  return z.string().check(safeText(rules));
}

import { expect } from "vitest";
import { errorResponse } from "@/lib/http/error-response";
import { createOpenApiChecker } from "@/lib/sandbox/testing/openapi-check";
import { buildCheckoutApiDocument } from "../api/openapi";

/**
 * The checkout sessions API's answers checked against its OpenAPI document as the handlers give
 * them: the status documented for the operation, the body valid against its schema, and an error's
 * code one of those the document lists for that status.
 */

const document = buildCheckoutApiDocument();
const checker = createOpenApiChecker(document);

type Answer = { "x-error-codes"?: string[]; $ref?: string };

function listedCodes(method: string, template: string, status: number): string[] | undefined {
  const operation = document.paths[template]?.[method.toLowerCase()] as { responses?: Record<string, Answer> } | undefined;
  let answer = operation?.responses?.[String(status)];
  // The answers every operation shares are components.
  if (answer?.$ref) answer = document.components.responses[answer.$ref.replace("#/components/responses/", "")] as Answer | undefined;
  return answer?.["x-error-codes"];
}

function templateOf(path: string): string | undefined {
  const bare = path.split("?", 1)[0]!;
  return Object.keys(document.paths).find((key) => new RegExp(`^${key.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(bare));
}

/** Expects the answer `status`/`body` of `method path` (relative to `/api`) to be what the document says. */
export function expectDocumented(method: string, path: string, status: number, body: unknown): void {
  const where = `${method} ${path} ${status}: ${JSON.stringify(body)}`;
  expect(checker.check({ method, path, status, body }), where).toEqual({ ok: true });
  if (status >= 400) {
    const template = templateOf(path);
    expect(template, where).toBeDefined();
    expect(listedCodes(method, template!, status), where).toContain((body as { error: { code: string } }).error.code);
  }
}

/**
 * Awaits a handler's answer (`{ status, body }`, or the body of a 200) or its refusal, checks it
 * against the document, and hands it on as it came (a refusal thrown again).
 */
export async function documented<T>(method: string, path: string, call: Promise<T>): Promise<T> {
  let result: T;
  try {
    result = await call;
  } catch (error) {
    const response = errorResponse(error);
    expectDocumented(method, path, response.status, await response.json());
    throw error;
  }
  const answer = result as { status?: unknown; body?: unknown };
  if (typeof answer.status === "number" && "body" in answer) expectDocumented(method, path, answer.status, answer.body);
  else expectDocumented(method, path, 200, result);
  return result;
}

/** `METHOD /template status` of every answer checked so far. */
export function documentedAnswers(): string[] {
  return checker.covered();
}

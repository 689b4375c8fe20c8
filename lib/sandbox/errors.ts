import type { z } from "zod";
import type { ErrorCode } from "@/lib/financing/contract";

/**
 * An answer other than success, in one of the partner API's three error formats. Thrown anywhere in
 * the sandbox and turned into a response in one place (`app.ts`).
 */
export class SandboxError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body.message === "string" ? body.message : String(body.error_description ?? body.error ?? status));
    this.name = "SandboxError";
  }
}

export interface FieldProblem {
  field: string;
  message: string;
}

/** `errorCode` + `message` (+ `additionalInfo`): the business error format. */
export function businessError(
  status: number,
  errorCode: ErrorCode,
  message: string,
  additionalInfo?: Record<string, unknown>,
): SandboxError {
  return new SandboxError(status, { errorCode, message, ...(additionalInfo ? { additionalInfo } : {}) });
}

/** `error` + `message` + `timestamp`: the general format (unknown routes, methods, framework errors). */
export function generalError(status: number, error: string, message: string, now: number): SandboxError {
  return new SandboxError(status, { error, message, timestamp: new Date(now).toISOString() });
}

/** `error_description`: the authentication format (401 only). */
export function authError(description: string): SandboxError {
  return new SandboxError(401, { error_description: description });
}

export function validationError(fields: FieldProblem[]): SandboxError {
  const message = `Invalid request: ${fields.map((f) => `${f.field}: ${f.message}`).join("; ")}`;
  return businessError(400, "VALIDATION_ERROR", message, { fields });
}

export function operationNotFound(id: string): SandboxError {
  return businessError(404, "OPERATION_NOT_FOUND", `Operation ${id} not found`);
}

/** The value, parsed by the schema; or 400 VALIDATION_ERROR naming every bad field. */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) {
    throw validationError(
      result.error.issues.map((issue) => ({
        field: issue.path.length > 0 ? issue.path.map(String).join(".") : "(body)",
        message: issue.message,
      })),
    );
  }
  return result.data;
}

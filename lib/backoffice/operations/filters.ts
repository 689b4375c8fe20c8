import { z } from "zod";
import { OPERATION_STATUSES, PAGE_SIZE_MAX, queryDateSchema, type OperationStatus } from "@/lib/financing/contract";
import type { ListOperationsInput } from "@/lib/financing/types";

/**
 * The operations list's view, all in the URL so a view can be shared: `page` (from 1, as people
 * count; the API counts from 0), `size` (1 to 100), `status`, and `from` / `to` (yyyy-MM-dd, the
 * API's query date format). Bad values are named, never a crash.
 */

export const DEFAULT_PAGE_SIZE = 20;
export const PAGE_SIZES = [10, 20, 50, 100] as const;

export interface OperationFilters {
  /** From 1. */
  page: number;
  size: number;
  status?: OperationStatus;
  /** yyyy-MM-dd */
  from?: string;
  /** yyyy-MM-dd */
  to?: string;
  /** "staff": only the payment links staff created, listed from our sessions (lib/backoffice/payment-links/payment-links.ts). */
  origin?: "staff";
}

export type FilterField = "page" | "size" | "status" | "from" | "to" | "range" | "origin";

type SearchParams = Record<string, string | string[] | undefined>;

const wholeNumber = /^\d{1,9}$/;

const filtersSchema = z
  .object({
    page: z.string().regex(wholeNumber).transform(Number).pipe(z.number().int().min(1)).optional(),
    size: z.string().regex(wholeNumber).transform(Number).pipe(z.number().int().min(1).max(PAGE_SIZE_MAX)).optional(),
    status: z.enum(OPERATION_STATUSES).optional(),
    from: queryDateSchema.optional(),
    to: queryDateSchema.optional(),
    origin: z.literal("staff").optional(),
  })
  .refine((f) => f.from === undefined || f.to === undefined || f.from <= f.to, { path: ["range"] });

/** The first value of a query parameter; an empty one (a form's blank field) is "not set". */
function single(params: SearchParams, name: string): string | undefined {
  const value = params[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined || first.trim() === "" ? undefined : first.trim();
}

export function parseOperationFilters(
  params: SearchParams,
): { ok: true; filters: OperationFilters } | { ok: false; problems: FilterField[] } {
  const raw = {
    page: single(params, "page"),
    size: single(params, "size"),
    status: single(params, "status"),
    from: single(params, "from"),
    to: single(params, "to"),
    origin: single(params, "origin"),
  };
  const parsed = filtersSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = [...new Set(parsed.error.issues.map((issue) => String(issue.path[0]) as FilterField))];
    return { ok: false, problems };
  }
  const { page, size, status, from, to, origin } = parsed.data;
  return { ok: true, filters: { page: page ?? 1, size: size ?? DEFAULT_PAGE_SIZE, status, from, to, origin } };
}

/** The filters as a query string (defaults left out), with `overrides` applied: `?status=CONFIRMED&page=2`. */
export function filtersQuery(filters: OperationFilters, overrides: Partial<OperationFilters> = {}): string {
  const f = { ...filters, ...overrides };
  const params = new URLSearchParams();
  if (f.status) params.set("status", f.status);
  if (f.from) params.set("from", f.from);
  if (f.to) params.set("to", f.to);
  if (f.origin) params.set("origin", f.origin);
  if (f.size !== DEFAULT_PAGE_SIZE) params.set("size", String(f.size));
  if (f.page !== 1) params.set("page", String(f.page));
  const query = params.toString();
  return query === "" ? "" : `?${query}`;
}

/** What `GET /operations` takes: its pages count from 0. */
export function toListInput(filters: OperationFilters): ListOperationsInput {
  return { page: filters.page - 1, size: filters.size, status: filters.status, from: filters.from, to: filters.to };
}

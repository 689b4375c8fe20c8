import type { SearchParams } from "@/lib/http/page-props";

/**
 * The booking reference a link to an operation carries (`?ref=`, a hint for the title and the
 * lookup, never trusted, kept only when short), the query that passes it on, and the operation
 * page's path with it.
 */
export function operationPath(id: string, query: SearchParams): { refHint?: string; refQuery: string; path: string } {
  const refHint = typeof query.ref === "string" && query.ref.length <= 200 ? query.ref : undefined;
  const refQuery = refHint ? `?ref=${encodeURIComponent(refHint)}` : "";
  return { refHint, refQuery, path: `/admin/operations/${encodeURIComponent(id)}${refQuery}` };
}

/**
 * The `route` label of the HTTP metrics: a path reduced to its route template, so that a label
 * never holds a session id, an operation id or the webhook token, and the number of series stays
 * bounded whatever paths clients make up. Pure, for the metrics and their tests.
 */

const TEMPLATES: [RegExp, string][] = [
  [/^\/_next\/static\//, "/_next/static"],
  [/^\/_next\/image/, "/_next/image"],
  [/^\/_next\//, "/_next"],
  [/^\/checkout\/[^/]+\/return\/(success|error)\/?$/, "/checkout/[sessionId]/return/$1"],
  [/^\/checkout\/[^/]+\/status\/data\/?$/, "/checkout/[sessionId]/status/data"],
  [/^\/checkout\/[^/]+\/(status|offers)\/?$/, "/checkout/[sessionId]/$1"],
  [/^\/checkout\/[^/]+\/?$/, "/checkout/[sessionId]"],
  [/^\/checkout\/[^/]+\/.+/, "/checkout/[sessionId]/*"],
  [/^\/api\/webhooks\/financing\/[^/]+\/?$/, "/api/webhooks/financing/[token]"],
  [/^\/api\/checkout-sessions\/[^/]+\/(cancel|erase|refund)\/?$/, "/api/checkout-sessions/[id]/$1"],
  [/^\/api\/checkout-sessions\/[^/]+\/?$/, "/api/checkout-sessions/[id]"],
  [/^\/admin\/operations\/[^/]+\/refund\/?$/, "/admin/operations/[id]/refund"],
  [/^\/admin\/operations\/[^/]+\/?$/, "/admin/operations/[id]"],
  [/^\/admin\/staff\/[^/]+\/?$/, "/admin/staff/[id]"],
  [/^\/admin\/login\/link\/[^/]+\/?$/, "/admin/login/link/[token]"],
  [/^\/admin\/login\/reset\/[^/]+\/?$/, "/admin/login/reset/[token]"],
  [/^\/embed\/[^/]+\/continue\/?$/, "/embed/[sessionId]/continue"],
  [/^\/docs\/guides\/[^/]+\/?$/, "/docs/guides/[slug]"],
  [/^\/sandbox\/v1\//, "/sandbox/v1/*"],
  [/^\/sandbox\/_control\//, "/sandbox/_control/*"],
  [/^\/sandbox\/.+/, "/sandbox/*"],
];

/** Fixed paths of the app, kept as they are; anything else is "other". */
const FIXED = new Set([
  "/",
  "/api/health",
  "/api/ready",
  "/api/metrics",
  "/api/badge",
  "/api/checkout-sessions",
  "/api/events",
  "/api/openapi.json",
  "/api/demo/notifications",
  "/docs",
  "/docs/scalar.js",
  "/admin",
  "/admin/login",
  "/admin/operations",
  "/admin/operations/export",
  "/admin/simulator",
  "/admin/theme",
  "/admin/security",
  "/admin/audit",
  "/admin/staff",
  "/admin/login/forgot",
  "/operator",
  "/embed/theme.css",
  "/sandbox",
  "/favicon.ico",
]);

export function routeLabel(rawUrl: string | undefined): string {
  const path = (rawUrl ?? "/").split(/[?#]/, 1)[0] || "/";
  if (FIXED.has(path)) return path;
  const trimmed = path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
  if (FIXED.has(trimmed)) return trimmed;
  for (const [pattern, template] of TEMPLATES) {
    const match = pattern.exec(path);
    if (match) return template.replace("$1", match[1] ?? "");
  }
  return "other";
}

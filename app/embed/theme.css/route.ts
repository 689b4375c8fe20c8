import { getAppContext } from "@/lib/app-context";
import { partnerById } from "@/lib/partners/partners";
import { partnerTheme } from "@/lib/theme/store";
import { themeCss, themeSchema, themeVersion } from "@/lib/theme/theme";
import { routeHandler } from "@/lib/http/request-scope";

export const dynamic = "force-dynamic";

/**
 * GET /embed/theme.css?partner=<id>&v=<version>: a partner's theme as CSS variables on :root, for
 * its checkout pages (components/theme/partner-theme.tsx). Cached for good when the version is the
 * current one (a new theme has a new URL), briefly otherwise.
 *
 * GET /embed/theme.css?preview=1&brand=…: any well-formed theme, saved or not, scoped to
 * `[data-theme-preview="<version>"]`, for the back-office preview (components/theme/theme-preview.tsx).
 * Values are validated (colours #rrggbb, fonts from a list, radius a number), so nothing but them
 * reaches the CSS.
 */
async function get(request: Request) {
  const query = new URL(request.url).searchParams;

  if (query.has("preview")) {
    const parsed = themeSchema.safeParse(Object.fromEntries(query));
    if (!parsed.success) return css("/* not a well-formed theme */\n", 400, "no-store");
    return css(themeCss(parsed.data, `[data-theme-preview="${themeVersion(parsed.data)}"]`), 200, "public, max-age=31536000, immutable");
  }

  const partnerId = query.get("partner");
  if (!partnerId || !/^[\w-]{1,64}$/.test(partnerId)) return css("/* no partner */\n", 400, "no-store");
  const ctx = await getAppContext();
  const partner = await partnerById(ctx.db, partnerId);
  const theme = partner ? partnerTheme(partner) : undefined;
  if (!theme) return css("/* the default theme */\n", partner ? 200 : 404, "public, max-age=60");
  const current = query.get("v") === themeVersion(theme);
  return css(themeCss(theme), 200, current ? "public, max-age=31536000, immutable" : "public, max-age=60");
}

function css(body: string, status: number, cacheControl: string): Response {
  return new Response(body, { status, headers: { "Content-Type": "text/css; charset=utf-8", "Cache-Control": cacheControl } });
}

export const GET = routeHandler("GET /embed/theme.css", get);

import type { PartnerRow } from "@/lib/db/schema";
import { partnerTheme } from "./store";
import { themeCss, themeSchema, themeVersion } from "./theme";

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
export async function themeCssResponse(
  request: Request,
  findPartner: (id: string) => Promise<Pick<PartnerRow, "theme"> | undefined>,
): Promise<Response> {
  const query = new URL(request.url).searchParams;

  if (query.has("preview")) {
    const parsed = themeSchema.safeParse(Object.fromEntries(query));
    if (!parsed.success) return css("/* not a well-formed theme */\n", 400, "no-store");
    return css(themeCss(parsed.data, `[data-theme-preview="${themeVersion(parsed.data)}"]`), 200, IMMUTABLE);
  }

  const partnerId = query.get("partner");
  if (!partnerId || !/^[\w-]{1,64}$/.test(partnerId)) return css("/* no partner */\n", 400, "no-store");
  const partner = await findPartner(partnerId);
  const theme = partner ? partnerTheme(partner) : undefined;
  if (!theme) return css("/* the default theme */\n", partner ? 200 : 404, BRIEFLY);
  const current = query.get("v") === themeVersion(theme);
  return css(themeCss(theme), 200, current ? IMMUTABLE : BRIEFLY);
}

const IMMUTABLE = "public, max-age=31536000, immutable";
const BRIEFLY = "public, max-age=60";

function css(body: string, status: number, cacheControl: string): Response {
  return new Response(body, { status, headers: { "Content-Type": "text/css; charset=utf-8", "Cache-Control": cacheControl } });
}

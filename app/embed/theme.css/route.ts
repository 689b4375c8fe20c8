import { getAppContext } from "@/lib/app-context";
import { partnerById } from "@/lib/partners/partners";
import { themeCssResponse } from "@/lib/theme/theme-css-response";
import { routeHandler } from "@/lib/http/request-scope";

export const dynamic = "force-dynamic";

/** A partner's theme, or a preview's, as CSS (lib/theme/theme-css-response.ts). */
async function get(request: Request) {
  return themeCssResponse(request, async (id) => partnerById((await getAppContext()).db, id));
}

export const GET = routeHandler("GET /embed/theme.css", get);

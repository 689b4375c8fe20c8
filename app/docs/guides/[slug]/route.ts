import { routeHandler } from "@/lib/http/request-scope";
import { readGuideHtml } from "@/lib/docs/guide-files";
import { guideOf, guidePage } from "@/lib/docs/guides";

export const dynamic = "force-dynamic";

/**
 * GET /docs/guides/{slug}: a guide /docs links (lib/docs/guides.ts), rendered from the repository's
 * Markdown. A page of its own like /docs: no React, one stylesheet under the response's nonce.
 */
async function get(request: Request, { params }: { params: Promise<{ slug: string }> }) {
  const nonce = request.headers.get("x-nonce");
  if (!nonce) return new Response("No nonce for this response", { status: 500 });
  const guide = guideOf((await params).slug);
  const html = guide ? await readGuideHtml(guide) : undefined;
  if (!guide || html === undefined) {
    return new Response("Not found", {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
  return new Response(guidePage({ nonce, guide, html }), {
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" },
  });
}

export const GET = routeHandler("GET /docs/guides/[slug]", get);

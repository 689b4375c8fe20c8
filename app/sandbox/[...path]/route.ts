import { getEnv } from "@/lib/config/env";
import { getSandbox } from "@/lib/sandbox/instance";

// The partner API sandbox, a separate system that this process also serves: every request under
// /sandbox goes to its own Web-standard handler. The app talks to it over HTTP like to the real API.
export const dynamic = "force-dynamic";

async function handle(request: Request): Promise<Response> {
  // proxy.ts answers 404 first; this stays so the route never serves on its own.
  if (!getEnv().SANDBOX_ENABLED) {
    return Response.json({ error: "Not Found", timestamp: new Date().toISOString() }, { status: 404 });
  }
  return getSandbox().fetch(request);
}

export { handle as GET, handle as POST, handle as PUT, handle as DELETE, handle as PATCH };

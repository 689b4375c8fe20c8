import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { isCheckoutSessionId } from "@/lib/http/checkout-session-id";
import { escapeHtml } from "@/lib/text/escape-html";
import { APP_PORT, APP_URL } from "./app";

/**
 * A partner's website for the embedding tests: another loopback origin than the app's (the app is
 * at http://localhost:$E2E_PORT, this at http://127.0.0.1:<port>: another site, so the checkout
 * frame is a third-party frame there). Its pages use the documented snippets, filled in by "the
 * partner's backend" (this server) from the query string:
 *
 * - `/shop?checkoutSession=cs_…`: the copy-paste embed snippet (data-session, data-target), events
 *   read from the `travelcheckout` DOM event;
 * - `/shop-api?checkoutSession=cs_…`: the same with `TravelCheckout.mount({ … onEvent })`;
 * - `/product?partner=demo&amount=1234.50`: the installment badge snippet.
 *
 * Every event the page receives goes to `window.checkoutEvents` and, when the test exposed it, to
 * `window.recordCheckoutEvent` (which survives the page's navigations).
 *
 * The allowed site's port is fixed, since the app must list its origin: the webServer's
 * DEMO_PARTNER_EXTRA_ORIGINS must name PARTNER_SITE_ORIGIN (playwright.config.ts). A site that is
 * not allowed takes any free port.
 */

export const PARTNER_SITE_PORT = Number(process.env.E2E_PARTNER_PORT ?? APP_PORT + 11);
export const PARTNER_SITE_ORIGIN = `http://127.0.0.1:${PARTNER_SITE_PORT}`;

export interface PartnerSite {
  origin: string;
  close(): Promise<void>;
}

const RECORD = `
  window.checkoutEvents = [];
  function record(event) {
    window.checkoutEvents.push(event);
    if (window.recordCheckoutEvent) window.recordCheckoutEvent(event);
  }`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="es">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(title)}</title>
  <style>
    body { margin: 0; font-family: Georgia, serif; background: #fafaf9; }
    header, footer { padding: 24px; background: #e7e5e4; }
    footer { min-height: 300px; }
    main { max-width: 760px; margin: 0 auto; padding: 16px; }
  </style>
</head>
<body>
  <header><p>Agencia de prueba: ${escapeHtml(title)}</p></header>
  <main>${body}</main>
  <footer><p>Pie de página de la agencia</p></footer>
</body>
</html>`;
}

function shopSnippet(appOrigin: string, session: string, outcome: string | null): string {
  return `
    <h1>Tu reserva</h1>
    ${outcome ? `<p id="returned">Vuelves del pago: ${escapeHtml(outcome)}</p>` : ""}
    <div id="checkout"></div>
    <script>${RECORD}
      document.addEventListener("travelcheckout", function (event) { record(event.detail); });
    </script>
    <script src="${appOrigin}/embed.js" data-session="${escapeHtml(session)}" data-target="#checkout" async></script>`;
}

function shopApiSnippet(appOrigin: string, session: string): string {
  return `
    <h1>Tu reserva</h1>
    <div id="checkout"></div>
    <script src="${appOrigin}/embed.js"></script>
    <script>${RECORD}
      TravelCheckout.mount({ session: ${JSON.stringify(session)}, element: "#checkout", locale: "es", onEvent: record });
    </script>`;
}

function productSnippet(appOrigin: string, partner: string, amount: string, locale: string): string {
  return `
    <h1>Lisboa, 4 noches</h1>
    <p>Precio: ${escapeHtml(amount)} €</p>
    <div id="badge" data-installments-badge data-partner="${escapeHtml(partner)}" data-amount="${escapeHtml(amount)}" data-locale="${escapeHtml(locale)}"></div>
    <script src="${appOrigin}/badge.js" async></script>`;
}

export async function startPartnerSite(options: { port?: number; appOrigin?: string } = {}): Promise<PartnerSite> {
  const appOrigin = options.appOrigin ?? APP_URL;
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://partner.invalid");
    const session = url.searchParams.get("checkoutSession") ?? "";
    let html: string | undefined;
    if (url.pathname === "/shop" && isCheckoutSessionId(session))
      html = page("reserva", shopSnippet(appOrigin, session, url.searchParams.get("outcome")));
    else if (url.pathname === "/shop-api" && isCheckoutSessionId(session)) html = page("reserva", shopApiSnippet(appOrigin, session));
    else if (url.pathname === "/product")
      html = page(
        "producto",
        productSnippet(
          appOrigin,
          url.searchParams.get("partner") ?? "demo",
          url.searchParams.get("amount") ?? "",
          url.searchParams.get("lang") ?? "es",
        ),
      );
    if (!html) {
      response.writeHead(404, { "Content-Type": "text/plain" }).end("not found");
      return;
    }
    response.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" }).end(html);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

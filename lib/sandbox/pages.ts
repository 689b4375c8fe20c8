import { Hono, type Context as HonoContext, type MiddlewareHandler } from "hono";
import { languageDetector } from "hono/language";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { OperationStatus } from "@/lib/financing/contract";
import { origin } from "./api";
import type { SandboxEngine } from "./engine";
import type { SandboxOperation } from "./operation";
import { SandboxError } from "./errors";
import type { SandboxOffer } from "./offers";
import type { Html, PageLocale } from "./pages/layout";
import { DEFAULT_PAGE_LANGUAGE, PAGE_LANGUAGES, PAGE_TEXT, type PageLanguage } from "./pages/text";
import { checkoutView, financingView, invalidLinkView, messageView, notEligibleView, statusView, type Link } from "./pages/views";
import { logError, loggerFor } from "@/lib/logger";

/**
 * The hosted pages the partner API links to, which customers (and QA's Playwright flows) click
 * through: the `financingUrl` page where the customer picks a plan, the provider checkout at
 * `paymentUrl` where they sign or decline, and the default result page used when the partner gave
 * no redirect URLs. Mounted by `app.ts` under `/sandbox`.
 *
 * Plain HTML forms and 303 redirects, no JavaScript. A page opened in the "wrong" state (back
 * button, double submit, a link opened late) shows where the operation stands, or sends the
 * customer on to where that state leads, instead of failing.
 *
 * In Spanish or English: a `lang` parameter (kept on the pages' own links, forms and redirects),
 * else the browser's Accept-Language, else Spanish.
 */

/** Where `app.ts` mounts the sandbox; `engine.startFinancing` builds `paymentUrl` under it too. */
const SANDBOX_BASE = "/sandbox";

const CHOOSING: readonly OperationStatus[] = ["GENERATED", "PENDING"];
/** The customer's financing went through: the success redirect. */
const SUCCEEDED: readonly OperationStatus[] = ["FAVORABLE", "CONFIRMED", "FINISHED"];
/** Over without financing: the error redirect. */
const FAILED: readonly OperationStatus[] = ["REFUSED", "ERROR", "CANCELLED", "EXPIRED"];

/**
 * What every hosted page's handler knows before it runs: the origin its addresses are built on,
 * the customer's language, and whether the address asked for it (then the pages' own links keep it).
 */
type PagesEnv = {
  Variables: {
    origin: string;
    language: string;
    locale: PageLocale;
    langParam: PageLanguage | undefined;
    redirectOrigins: readonly string[] | undefined;
  };
};

export interface HostedPagesOptions {
  /**
   * The origins the pages send the customer to on their own (the served sandbox: the app's); a
   * partner's return URL elsewhere is offered as a link on the result page instead, so the published
   * keys cannot make this origin redirect anywhere. Undefined: any.
   */
  redirectOrigins?: readonly string[];
}
type Context = HonoContext<PagesEnv>;

export function hostedPages(engine: SandboxEngine, options: HostedPagesOptions = {}) {
  const pages = new Hono<PagesEnv>();

  // Only these prefixes: a `*` here would also wrap the partner API, which `app.ts` mounts beside.
  for (const prefix of ["/pay/*", "/provider/*"]) {
    pages.use(
      prefix,
      languageDetector({
        order: ["querystring", "header"],
        lookupQueryString: "lang",
        supportedLanguages: [...PAGE_LANGUAGES],
        fallbackLanguage: DEFAULT_PAGE_LANGUAGE,
        caches: false,
      }),
    );
    pages.use(prefix, hostedPageContext(engine, options.redirectOrigins));
  }

  // --- The financing page (`financingUrl`) ---------------------------------------------------

  pages.get("/pay/financing", async (c) => {
    const operation = await byPageToken(engine, c);
    if (!operation) return render(c, 404, invalidLinkView(c.var.locale));
    if (!CHOOSING.includes(operation.status)) {
      return render(c, 200, statusView(c.var.locale, { operation, next: nextStep(c, operation) }));
    }
    return offersPage(c, engine, await engine.openFinancingPage(operation.id), 200);
  });

  pages.post("/pay/financing", async (c) => {
    const operation = await byPageToken(engine, c);
    if (!operation) return render(c, 404, invalidLinkView(c.var.locale));
    if (!CHOOSING.includes(operation.status)) {
      // A second click on "Continue" after the first went through: follow the first.
      if (operation.status === "CLIENT_REQUESTED" && operation.financing) {
        return c.redirect(checkoutUrl(c, operation.financing.requestToken), 303);
      }
      return render(c, 409, statusView(c.var.locale, { operation, next: nextStep(c, operation) }));
    }

    // A body that is not a readable form (garbled multipart, say) chose no plan: the same 400.
    const form = await c.req.parseBody().catch(() => undefined);
    const offerId = parseOfferId(form?.offerId);
    if (offerId === undefined) {
      return offersPage(c, engine, operation, 400, { alert: c.var.locale.t.financing.chooseOne });
    }
    const eligible = eligibility(engine, operation);
    if ("unavailable" in eligible) return unavailablePage(c, operation, eligible.unavailable);
    const chosen = eligible.offers.find((offer) => offer.id === offerId);

    let started: Awaited<ReturnType<SandboxEngine["startFinancing"]>>;
    try {
      started = await engine.startFinancing(operation.id, offerId, c.var.origin);
    } catch (error) {
      // A tampered or stale offerId: the engine's 422, shown with the plans still on offer.
      if (error instanceof SandboxError && error.body.errorCode === "NOT_ELIGIBLE_FINANCIAL_OFFER") {
        return offersPage(c, engine, operation, 422, { alert: c.var.locale.t.financing.notAvailable });
      }
      throw error;
    }

    const { outcome, operation: after } = started;
    if (outcome.financingStatus === "REQUESTED") return c.redirect(withLang(c, outcome.paymentUrl), 303);
    if (outcome.hasAlternativeFinancialOffers) {
      const { t } = c.var.locale;
      const what = chosen ? t.financing.installments(chosen.installments) : t.financing.thatPlan;
      const alert = outcome.financingStatus === "REFUSED" ? t.financing.providerRefused(what) : t.financing.providerError(what);
      return offersPage(c, engine, after, 200, { alert });
    }
    return c.redirect(returnUrl(c, after), 303);
  });

  // --- The provider checkout (`paymentUrl`) --------------------------------------------------

  pages.get("/provider/checkout/:requestToken", async (c) => {
    const operation = await engine.operationByRequestToken(c.req.param("requestToken"));
    if (!operation?.financing) return render(c, 404, invalidLinkView(c.var.locale));
    if (operation.status !== "CLIENT_REQUESTED") return followStatus(c, operation, 200);
    const path = checkoutPath(operation.financing.requestToken);
    return render(
      c,
      200,
      checkoutView(c.var.locale, {
        operation,
        financing: operation.financing,
        signAction: withLang(c, `${path}/sign`),
        declineAction: withLang(c, `${path}/decline`),
      }),
    );
  });

  pages.post("/provider/checkout/:requestToken/sign", async (c) => {
    const operation = await engine.operationByRequestToken(c.req.param("requestToken"));
    if (!operation?.financing) return render(c, 404, invalidLinkView(c.var.locale));
    // Signed already (double submit, back button): the first decision stands.
    if (operation.status !== "CLIENT_REQUESTED") return followStatus(c, operation, 409);
    return c.redirect(returnUrl(c, await engine.sign(operation.id)), 303);
  });

  pages.post("/provider/checkout/:requestToken/decline", async (c) => {
    const operation = await engine.operationByRequestToken(c.req.param("requestToken"));
    if (!operation?.financing) return render(c, 404, invalidLinkView(c.var.locale));
    if (operation.status !== "CLIENT_REQUESTED") return followStatus(c, operation, 409);
    return c.redirect(returnUrl(c, await engine.declineAtCheckout(operation.id)), 303);
  });

  // A reload or a typed URL of a form's target: back to the page that has the form.
  pages.get("/provider/checkout/:requestToken/:action{sign|decline}", (c) => c.redirect(checkoutUrl(c, c.req.param("requestToken")), 303));

  // --- The default result page -----------------------------------------------------------------

  pages.get("/pay/result", async (c) => {
    const operation = await byPageToken(engine, c);
    if (!operation) return render(c, 404, invalidLinkView(c.var.locale));
    const { t } = c.var.locale;
    if (CHOOSING.includes(operation.status) && "unavailable" in eligibility(engine, operation)) {
      return render(
        c,
        200,
        statusView(c.var.locale, { operation, heading: t.unavailable.title, explanation: t.unavailable.resultExplanation }),
      );
    }
    return render(c, 200, statusView(c.var.locale, { operation, next: nextStep(c, operation) }));
  });

  // Unknown hosted-page URLs get a page too, not the API's JSON 404.
  const notFound = (c: Context) => render(c, 404, messageView(c.var.locale, c.var.locale.t.errors.notFound));
  pages.all("/pay/*", notFound);
  pages.all("/provider/*", notFound);

  // Engine errors (409 NOT_ACTIVE_OPERATION and the like) reach a browser here: HTML, same status.
  pages.onError((error, c) => {
    // Set by the middleware, unless the error came before it.
    const locale = c.get("locale") ?? pageLocale(c, DEFAULT_PAGE_LANGUAGE);
    const { t } = locale;
    if (error instanceof SandboxError) {
      const code = typeof error.body.errorCode === "string" ? error.body.errorCode : undefined;
      return render(
        c,
        contentfulStatus(error.status),
        messageView(locale, {
          title: error.status === 409 ? t.errors.conflict : t.errors.failed,
          // The engine's own message, in English as the API gives it.
          message: error.message,
          ...(code === undefined ? {} : { detail: t.errors.detail(code, error.status) }),
        }),
      );
    }
    logError(loggerFor("sandbox"), "sandbox pages: unexpected error", error, { route: c.req.routePath });
    return render(c, 500, messageView(locale, t.errors.unexpected));
  });

  return pages;
}

// ---------------------------------------------------------------------------------------------

function hostedPageContext(engine: SandboxEngine, redirectOrigins: readonly string[] | undefined): MiddlewareHandler<PagesEnv> {
  return async (c, next) => {
    c.set("origin", origin(c, engine));
    c.set("redirectOrigins", redirectOrigins);
    const asked = c.req.query("lang")?.trim().toLowerCase();
    c.set(
      "langParam",
      PAGE_LANGUAGES.find((lang) => lang === asked),
    );
    c.set("locale", pageLocale(c, PAGE_LANGUAGES.find((lang) => lang === c.var.language) ?? DEFAULT_PAGE_LANGUAGE));
    await next();
    // The URLs carry the operation's token: keep them out of caches and out of other sites' Referer.
    c.res.headers.set("Cache-Control", "no-store");
    c.res.headers.set("Referrer-Policy", "no-referrer");
  };
}

async function render(c: Context, status: ContentfulStatusCode, page: Html): Promise<Response> {
  return c.body(await page, status, { "Content-Type": "text/html; charset=utf-8", "Content-Language": c.var.locale.lang });
}

/** The texts in `lang`, and the link to this same page (a GET of its address) in the other language. */
function pageLocale(c: Context, lang: PageLanguage): PageLocale {
  const other = lang === "es" ? "en" : "es";
  const here = new URL(c.req.url);
  here.searchParams.set("lang", other);
  return { lang, t: PAGE_TEXT[lang], other: { lang: other, name: PAGE_TEXT[other].name, href: `${here.pathname}${here.search}` } };
}

/** One of the sandbox's own addresses, with the `lang` the request asked for, if it asked. */
function withLang(c: Context, address: string): string {
  const lang = c.var.langParam;
  if (lang === undefined) return address;
  const absolute = /^https?:/.test(address);
  const url = new URL(address, "http://relative.invalid");
  url.searchParams.set("lang", lang);
  return absolute ? url.toString() : `${url.pathname}${url.search}`;
}

function contentfulStatus(status: number): ContentfulStatusCode {
  // Engine errors are 4xx/5xx with a body; anything else would be a bug, shown as a 500.
  return status >= 400 && status <= 599 ? (status as ContentfulStatusCode) : 500;
}

async function byPageToken(engine: SandboxEngine, c: Context): Promise<SandboxOperation | undefined> {
  const id = c.req.query("operation");
  const token = c.req.query("token");
  return id && token ? engine.operationByToken(id, token) : undefined;
}

/** `offerId` from the form: a positive whole number, else undefined. */
function parseOfferId(value: unknown): number | undefined {
  if (typeof value !== "string" || !/^[1-9]\d{0,14}$/.test(value.trim())) return undefined;
  return Number(value.trim());
}

type Eligibility = { offers: SandboxOffer[] } | { unavailable: "not_eligible" | "no_offers" };

/** The plans the customer can choose from now, or why there are none. */
function eligibility(engine: SandboxEngine, operation: SandboxOperation): Eligibility {
  let offers: SandboxOffer[];
  try {
    offers = engine.offersFor(operation);
  } catch (error) {
    if (error instanceof SandboxError && error.body.errorCode === "NOT_ELIGIBLE_FOR_FINANCING") return { unavailable: "not_eligible" };
    throw error;
  }
  // An amount outside every product's range, or a market without providers: nothing to pick.
  return offers.length === 0 ? { unavailable: "no_offers" } : { offers };
}

function unavailablePage(c: Context, operation: SandboxOperation, reason: "not_eligible" | "no_offers"): Promise<Response> {
  // The API's GET /financing answers 422 NOT_ELIGIBLE_FOR_FINANCING; an empty list is a 200 there too.
  return render(c, reason === "not_eligible" ? 422 : 200, notEligibleView(c.var.locale, operation, reason, giveUpLink(c, operation)));
}

async function offersPage(
  c: Context,
  engine: SandboxEngine,
  operation: SandboxOperation,
  status: ContentfulStatusCode,
  options: { alert?: string } = {},
): Promise<Response> {
  const eligible = eligibility(engine, operation);
  if ("unavailable" in eligible) return unavailablePage(c, operation, eligible.unavailable);
  return render(c, status, financingView(c.var.locale, { operation, offers: eligible.offers, ...options }));
}

/** An operation past the customer's step: send them where its status leads, or say where it stands. */
function followStatus(c: Context, operation: SandboxOperation, status: ContentfulStatusCode): Promise<Response> | Response {
  if (SUCCEEDED.includes(operation.status) || FAILED.includes(operation.status)) {
    return c.redirect(returnUrl(c, operation), 303);
  }
  return render(c, status, statusView(c.var.locale, { operation, next: nextStep(c, operation) }));
}

/**
 * Where the customer goes when the financing ends: the partner's success or error URL (by the
 * operation's status), with `operationId`, `externalId` and `status` appended, or the sandbox's
 * default result page when the partner gave none.
 *
 * The partner must not trust these parameters: anyone can type them into a browser. They only say
 * which operation to look at; the partner (our app's return route) asks
 * GET /operations/{id}/status before acting on a return.
 */
function returnUrl(c: Context, operation: SandboxOperation): string {
  const partner = partnerUrl(operation, SUCCEEDED.includes(operation.status) ? "success" : "error");
  const allowed = c.var.redirectOrigins;
  if (partner !== undefined && (allowed === undefined || allowed.includes(new URL(partner).origin))) return partner;
  // Elsewhere: the result page, whose link to the partner's URL the customer follows or not.
  return resultUrl(c, operation);
}

function partnerUrl(operation: SandboxOperation, kind: "success" | "error"): string | undefined {
  const given = kind === "success" ? operation.request.successRedirectUrl : operation.request.errorRedirectUrl;
  const url = given === undefined ? undefined : httpUrl(given);
  if (!url) return undefined;
  url.searchParams.set("operationId", operation.id);
  if (operation.externalId !== null) url.searchParams.set("externalId", operation.externalId);
  url.searchParams.set("status", operation.status);
  return url.toString();
}

/**
 * Only http(s) URLs are followed or linked: the contract's `z.url()` also accepts `javascript:`,
 * which in a link on these pages would run script on the sandbox's origin.
 */
function httpUrl(value: string): URL | undefined {
  if (!URL.canParse(value)) return undefined;
  const url = new URL(value);
  return url.protocol === "https:" || url.protocol === "http:" ? url : undefined;
}

function resultUrl(c: Context, operation: SandboxOperation): string {
  return pageUrl(c, "/pay/result", operation);
}

function financingPageUrl(c: Context, operation: SandboxOperation): string {
  return pageUrl(c, "/pay/financing", operation);
}

function pageUrl(c: Context, path: string, operation: SandboxOperation): string {
  const url = new URL(`${c.var.origin}${SANDBOX_BASE}${path}`);
  url.searchParams.set("operation", operation.id);
  url.searchParams.set("token", operation.token);
  return withLang(c, url.toString());
}

function checkoutPath(requestToken: string): string {
  return `${SANDBOX_BASE}/provider/checkout/${encodeURIComponent(requestToken)}`;
}

function checkoutUrl(c: Context, requestToken: string): string {
  return withLang(c, `${c.var.origin}${checkoutPath(requestToken)}`);
}

/** The one useful link on a status page, if there is one. */
function nextStep(c: Context, operation: SandboxOperation): Link | undefined {
  const { t } = c.var.locale;
  if (CHOOSING.includes(operation.status)) return { href: financingPageUrl(c, operation), text: t.links.choosePlan };
  if (operation.status === "CLIENT_REQUESTED" && operation.financing) {
    return { href: checkoutUrl(c, operation.financing.requestToken), text: t.links.continueAt(operation.financing.offer.companyName) };
  }
  if (SUCCEEDED.includes(operation.status) || FAILED.includes(operation.status)) {
    const partner = partnerUrl(operation, SUCCEEDED.includes(operation.status) ? "success" : "error");
    return partner === undefined ? undefined : { href: partner, text: t.links.returnToShop };
  }
  return undefined;
}

/** Out of the financing page without financing: the partner's error URL, or the default result page. */
function giveUpLink(c: Context, operation: SandboxOperation): Link {
  const { t } = c.var.locale;
  const partner = partnerUrl(operation, "error");
  return partner === undefined
    ? { href: resultUrl(c, operation), text: t.links.continueWithout }
    : { href: partner, text: t.links.returnToPayAnotherWay };
}

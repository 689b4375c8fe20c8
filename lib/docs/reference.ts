/**
 * The documents /docs shows and how Scalar renders them. Pure: the page and its tests share it.
 */

export interface ReferenceDocument {
  title: string;
  /** Scalar puts it in the page's URL (`?api=…`) to switch documents. */
  slug: string;
  url: string;
}

export const CHECKOUT_API_DOCUMENT: ReferenceDocument = {
  title: "Checkout sessions API",
  slug: "checkout-sessions",
  url: "/api/openapi.json",
};

export const SANDBOX_API_DOCUMENT: ReferenceDocument = {
  title: "Partner API sandbox",
  slug: "partner-api-sandbox",
  url: "/sandbox/v1/openapi.json",
};

/** Scalar's configuration: nothing fetched from elsewhere (fonts, request proxy, telemetry). */
export function referenceConfiguration(documents: readonly ReferenceDocument[]) {
  return {
    sources: documents.map((document, index) => ({ ...document, default: index === 0 })),
    withDefaultFonts: false,
    telemetry: false,
    hideClientButton: false,
  };
}

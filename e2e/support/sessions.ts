import type { APIRequestContext, APIResponse } from "@playwright/test";

/** A customer whose data passes every check of the form, as a partner would prefill it. */
export const PREFILLED_CUSTOMER = {
  firstName: "Ana",
  lastName: "García López",
  email: "ana@example.com",
  prefix: "+34",
  phone: "612345678",
  documentType: "DNI",
  documentId: "12345678Z",
  documentValidityDate: "2031-01-31",
  gender: "FEMALE",
  birthDate: "1990-07-04",
  nationality: "ESP",
  address: "Calle Mayor 1",
  city: "Madrid",
  postalCode: "28013",
  countryCode: "ESP",
} as const;

/**
 * What a partner's backend does to open a checkout: `POST /api/checkout-sessions` with its secret,
 * a sample trip under a unique booking reference, and the customer's data prefilled.
 */
export function postCheckoutSession(
  request: APIRequestContext,
  options: { secret: string; referencePrefix: string; returnUrl: string; locale?: "es" | "en" },
): Promise<APIResponse> {
  return request.post("/api/checkout-sessions", {
    headers: { Authorization: `Bearer ${options.secret}` },
    data: {
      booking: {
        bookingReference: `${options.referencePrefix}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`,
        packageName: "Lisboa, 4 noches",
        travellers: 2,
        totalPrice: { amount: 1234.5, currency: "EUR" },
        flights: [{ origin: "MAD", destination: "LIS", departureDate: "2027-05-01" }],
      },
      customer: PREFILLED_CUSTOMER,
      returnUrl: options.returnUrl,
      ...(options.locale ? { locale: options.locale } : {}),
    },
  });
}

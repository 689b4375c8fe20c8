import { expect, type APIRequestContext, type APIResponse } from "@playwright/test";
import { APP_URL, DEMO_PARTNERS, type DemoPartner } from "./app";
import { aBookingReference, aCustomer, TEST_BOOKING, type CustomerDetails } from "./test-data";

/*
 * The checkout sessions API (`/api/checkout-sessions`), our own API for agencies, called the way a
 * partner's backend calls it: its secret as a bearer token, JSON. (The "partner API" is the
 * financing API: see sandbox.ts.)
 */

export interface CheckoutSessionOptions {
  /** The booking reference; a unique one when not given. */
  reference?: string;
  /** What the partner knows of the customer, prefilled: the whole test customer unless given; `null` sends none. */
  customer?: Partial<CustomerDetails> | null;
  /** Where the customer goes back to: the app's own shop unless given. */
  returnUrl?: string;
  locale?: "es" | "en";
}

/** What a partner's backend sends: the test booking, the customer's data prefilled, a return URL. */
export function checkoutSessionBody(options: CheckoutSessionOptions = {}) {
  const customer = options.customer === undefined ? aCustomer() : options.customer;
  return {
    booking: {
      bookingReference: options.reference ?? aBookingReference(),
      packageName: TEST_BOOKING.packageName,
      travellers: TEST_BOOKING.travellers,
      totalPrice: { amount: TEST_BOOKING.totalPrice, currency: "EUR" },
      flights: TEST_BOOKING.flights.map((flight) => ({ ...flight })),
    },
    ...(customer ? { customer } : {}),
    returnUrl: options.returnUrl ?? `${APP_URL}/`,
    ...(options.locale ? { locale: options.locale } : {}),
  };
}
export type CheckoutSessionBody = ReturnType<typeof checkoutSessionBody>;

/** A session as the API shows it to its partner: its state, never the customer's data. */
export interface CheckoutSessionResource {
  id: string;
  url: string;
  bookingReference: string;
  state: string;
  final: boolean;
  operation: { id: string; status: string } | null;
  expiresAt: string;
  createdAt: string;
  updatedAt: string;
}

export class CheckoutSessionsApi {
  /**
   * @param origin where the app is: the tests' baseURL unless given (e.g. a load balancer's).
   * @param secret the partner's secret to call with: its published demo secret unless given.
   */
  constructor(
    readonly request: APIRequestContext,
    readonly partner: DemoPartner = DEMO_PARTNERS.demo,
    readonly origin = "",
    readonly secret: string = partner.secret,
  ) {}

  /** The same API, called by another partner. */
  as(partner: DemoPartner): CheckoutSessionsApi {
    return new CheckoutSessionsApi(this.request, partner, this.origin);
  }

  /** The same partner, calling with another of its secrets (one made in the back-office). */
  withSecret(secret: string): CheckoutSessionsApi {
    return new CheckoutSessionsApi(this.request, this.partner, this.origin, secret);
  }

  get authorization(): Record<string, string> {
    return { Authorization: `Bearer ${this.secret}` };
  }

  /** POST /api/checkout-sessions of a session with these options, with the partner's secret and more headers, as sent. */
  postSession(options: CheckoutSessionOptions, headers: Record<string, string>): Promise<APIResponse> {
    return this.post(checkoutSessionBody(options), { ...this.authorization, ...headers });
  }

  /** POST /api/checkout-sessions with any body and headers (the partner's secret unless `headers` says otherwise), as sent. */
  post(data: unknown, headers: Record<string, string> = this.authorization): Promise<APIResponse> {
    return this.request.post(`${this.origin}/api/checkout-sessions`, { headers, data });
  }

  /** Opens a session for the test booking, as sent: for tests of the answer itself. */
  create(options: CheckoutSessionOptions = {}): Promise<APIResponse> {
    return this.post(checkoutSessionBody(options));
  }

  /** Opens a session for the test booking; answers it (its id, its URL). */
  async open(options: CheckoutSessionOptions = {}): Promise<CheckoutSessionResource> {
    const response = await this.create(options);
    expect(response.status(), await response.text()).toBe(201);
    return (await response.json()) as CheckoutSessionResource;
  }

  /**
   * POST /api/checkout-sessions with an `Idempotency-Key`, as a backend that retries sends it (other
   * headers, `Checkout-Api-Version` say, added to the partner's secret), as sent.
   */
  postWithKey(data: unknown, key: string, headers: Record<string, string> = {}): Promise<APIResponse> {
    return this.post(data, { ...this.authorization, "Idempotency-Key": key, ...headers });
  }

  /** GET /api/checkout-sessions/{id} (headers added to the partner's secret), as sent. */
  get(id: string, headers: Record<string, string> = {}): Promise<APIResponse> {
    return this.request.get(`${this.origin}/api/checkout-sessions/${id}`, { headers: { ...this.authorization, ...headers } });
  }

  /** The session as the partner's backend reads it: the outcome the partner will act on. */
  async read(id: string): Promise<CheckoutSessionResource> {
    const response = await this.get(id);
    expect(response.status()).toBe(200);
    return (await response.json()) as CheckoutSessionResource;
  }

  /** GET /api/checkout-sessions with these query parameters, as sent. */
  list(query: Record<string, string> = {}): Promise<APIResponse> {
    return this.request.get(`${this.origin}/api/checkout-sessions?${new URLSearchParams(query).toString()}`, {
      headers: this.authorization,
    });
  }

  /** POST /api/checkout-sessions/{id}/cancel, as sent (no body unless given). */
  cancel(id: string, body?: unknown): Promise<APIResponse> {
    return this.request.post(`${this.origin}/api/checkout-sessions/${id}/cancel`, {
      headers: this.authorization,
      ...(body === undefined ? {} : { data: body }),
    });
  }

  /** GET /api/checkout-sessions/{id}/refund (what a refund would give back), as sent. */
  refundBreakdown(id: string): Promise<APIResponse> {
    return this.request.get(`${this.origin}/api/checkout-sessions/${id}/refund`, { headers: this.authorization });
  }

  /** POST /api/checkout-sessions/{id}/refund, as sent (no body unless given). */
  refund(id: string, body?: unknown): Promise<APIResponse> {
    return this.request.post(`${this.origin}/api/checkout-sessions/${id}/refund`, {
      headers: this.authorization,
      ...(body === undefined ? {} : { data: body }),
    });
  }
}

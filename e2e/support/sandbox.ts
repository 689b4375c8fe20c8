import { expect, type APIRequestContext, type APIResponse } from "@playwright/test";
import { aBookingReference, aCustomer, TEST_BOOKING, type CustomerDetails } from "./test-data";

/*
 * The sandbox of the financing partner API (docs/contributors/architecture.md, "The sandbox"), reached the way a partner's systems
 * reach it: its partner API at `/sandbox/v1` and its control API at `/sandbox/_control`, with an
 * agency key. Tests use it to set the scene (operations created and moved as the partner's systems
 * and its customers would move them) and to check what the partner API says happened.
 */

/** The sandbox's agency key with providers configured (agency 101); sandbox-only, not a secret. */
export const SANDBOX_AGENCY_KEY = "fk_test_sandbox_agency_101";
/** The sandbox's management group key (agencies 101, 102 and the inactive 103). */
export const SANDBOX_GROUP_KEY = "fk_test_sandbox_group_1";

/**
 * Agency 101 is reached with its agency key, 102 with the group key and the agency header. Only the
 * back-office's tests use 102 (which has no providers), so its lists hold only what they created.
 */
export type SandboxAgency = 101 | 102;

export interface SandboxOperation {
  id: string;
  externalId: string;
  status: string;
  financingUrl: string;
}

export interface SandboxRefundDetails {
  operationId: string;
  totalReserve: { amount: number; currency: string };
  managementFees: { amount: number; currency: string };
  fliinowCancellationFee: { amount: number; currency: string };
  fliinowCancellationFeePercentage: number;
  totalToRefund: { amount: number; currency: string };
}

export interface SandboxWebhookEvent {
  eventId: number;
  status: string;
  /** Origin and path shape only: the sandbox never shows a webhook URL's secret path. */
  url: string;
  /** Deliveries made so far. */
  attempts: number;
  /** Each delivery: when, and the HTTP status answered (or the network error). */
  deliveries: { at: string; status?: number; error?: string }[];
  acknowledged: boolean;
}

export interface CreateOperationOptions {
  agency?: SandboxAgency;
  /** The booking reference; a unique one when not given. */
  externalId?: string;
  /** The customer's e-mail, which carries the sandbox's triggers ("ana+refund_reject@…"). */
  email?: string;
}

/** yyyy-MM-dd (the app's dates) as dd-MM-yyyy (the partner API's body dates). */
function bodyDate(isoDay: string): string {
  const [year, month, day] = isoDay.split("-");
  return `${day}-${month}-${year}`;
}

/** The test customer as the partner API's `client` (no document type; body dates). */
function wireClient({ documentType: _type, ...customer }: CustomerDetails) {
  return { ...customer, documentValidityDate: bodyDate(customer.documentValidityDate), birthDate: bodyDate(customer.birthDate) };
}

/** POST /operations's body: the test booking for the test customer, with no redirect URLs. */
export function operationBody(options: Pick<CreateOperationOptions, "externalId" | "email"> = {}) {
  return {
    externalId: options.externalId ?? aBookingReference(),
    packageName: TEST_BOOKING.packageName,
    packageTravel: true,
    travelersNumber: TEST_BOOKING.travellers,
    totalPrice: TEST_BOOKING.totalPrice,
    client: wireClient(aCustomer(options.email ? { email: options.email } : {})),
    flights: TEST_BOOKING.flights.map((flight) => ({
      ...flight,
      departureDate: bodyDate(flight.departureDate),
      ...(flight.returnDate ? { returnDate: bodyDate(flight.returnDate) } : {}),
    })),
  };
}

export class Sandbox {
  /**
   * @param origin where the sandbox is served: the app under test (its baseURL) unless given, e.g.
   *   a sandbox running as its own process.
   */
  constructor(
    readonly request: APIRequestContext,
    readonly origin = "",
  ) {}

  headers(agency: SandboxAgency = 101): Record<string, string> {
    return agency === 101
      ? { "X-Service-API-Key": SANDBOX_AGENCY_KEY }
      : { "X-Service-API-Key": SANDBOX_GROUP_KEY, "X-Service-Agency": String(agency) };
  }

  private url(path: string): string {
    return `${this.origin}/sandbox${path}`;
  }

  private async json<T>(response: APIResponse, status = 200): Promise<T> {
    expect(response.status(), `${response.url()}: ${await response.text()}`).toBe(status);
    return (await response.json()) as T;
  }

  /** Waits for the app to serve the sandbox (the web server may still be starting its routes). */
  async waitUntilServed(): Promise<void> {
    await expect
      .poll(async () => (await this.request.get(this.url("/v1/health"), { headers: this.headers() })).status(), {
        message: "GET /sandbox/v1/health should answer 200: is the sandbox mounted in the app?",
        timeout: 30_000,
      })
      .toBe(200);
  }

  /** POST /operations, as sent: for tests of the answer itself. */
  postOperation(options: CreateOperationOptions = {}): Promise<APIResponse> {
    return this.request.post(this.url("/v1/operations"), { headers: this.headers(options.agency), data: operationBody(options) });
  }

  /**
   * A new GENERATED operation for the test booking, with a unique booking reference. No redirect
   * URLs, so a customer ends on the sandbox's own result pages.
   */
  async createOperation(options: CreateOperationOptions = {}): Promise<SandboxOperation> {
    return this.json<SandboxOperation>(await this.postOperation(options), 201);
  }

  /** GET /financing/simulate/{amount}: the plans for a price (amount as the path writes it, "1234.5"). */
  async simulate(amount: string, countryCode = "ESP"): Promise<{ installments: number; commonQuota: number }[]> {
    const response = await this.request.get(this.url(`/v1/financing/simulate/${amount}?countryCode=${countryCode}`), {
      headers: this.headers(),
    });
    return (await this.json<{ financialOffers: { installments: number; commonQuota: number }[] }>(response)).financialOffers;
  }

  /** The customer picks a plan (POST /financing): the operation becomes CLIENT_REQUESTED. */
  async requestFinancing(id: string): Promise<void> {
    const offers = await this.request.get(this.url(`/v1/financing/${id}`), { headers: this.headers() });
    const [first] = (await this.json<{ financialOffers: { id: number }[] }>(offers)).financialOffers;
    const started = await this.request.post(this.url("/v1/financing"), {
      headers: this.headers(),
      data: { operationIdentifier: id, financialOfferId: first!.id },
    });
    expect(started.status()).toBe(200);
    expect(await this.status(id)).toBe("CLIENT_REQUESTED");
  }

  /** The provider's decision on a requested operation (control API), as sent. */
  decide(id: string, decision: "approve" | "decline" | "error"): Promise<APIResponse> {
    return this.request.post(this.url(`/_control/operations/${id}/decision`), { headers: this.headers(), data: { decision } });
  }

  /** The customer signs and the provider approves: CONFIRMED. */
  async confirm(id: string): Promise<void> {
    await this.requestFinancing(id);
    expect((await this.decide(id, "approve")).status()).toBe(200);
    expect(await this.status(id)).toBe("CONFIRMED");
  }

  /** Cancelled by the partner's own systems (straight through the API). */
  async cancel(id: string, agency: SandboxAgency = 101): Promise<void> {
    const response = await this.request.post(this.url(`/v1/operations/${id}/cancel`), { headers: this.headers(agency), data: {} });
    expect(response.status()).toBe(200);
  }

  /** The operation's status, from GET /operations/{id}/status: what a partner trusts. */
  async status(id: string, agency: SandboxAgency = 101): Promise<string> {
    const response = await this.request.get(this.url(`/v1/operations/${id}/status`), { headers: this.headers(agency) });
    return (await this.json<{ status: string }>(response)).status;
  }

  async refundDetails(id: string): Promise<SandboxRefundDetails> {
    return this.json<SandboxRefundDetails>(
      await this.request.get(this.url(`/v1/operations/${id}/refund/details`), { headers: this.headers() }),
    );
  }

  /** The operation's history as the sandbox keeps it (statuses with their notes: the reasons). */
  async history(id: string): Promise<{ status: string; note?: string }[]> {
    const response = await this.request.get(this.url(`/_control/operations/${id}`), { headers: this.headers() });
    return (await this.json<{ history: { status: string; note?: string }[] }>(response)).history;
  }

  /** The webhook events the sandbox sent (or tried to send) for an operation. */
  async webhooks(id: string): Promise<SandboxWebhookEvent[]> {
    return (await this.request.get(this.url(`/_control/operations/${id}/webhooks`), { headers: this.headers() })).json() as Promise<
      SandboxWebhookEvent[]
    >;
  }

  /** Redelivers every unacknowledged event now (control API), as the API does on its schedule (1 min, 5 min…). */
  async redeliver(): Promise<number> {
    const response = await this.request.post(this.url("/_control/webhooks/redeliver"), { headers: this.headers() });
    return (await this.json<{ delivered: number }>(response)).delivered;
  }

  /** A fault on one of the partner API's routes (control API), as sent. */
  injectFault(fault: { route: string; fault: string; latencyMs?: number; count?: number }): Promise<APIResponse> {
    return this.request.put(this.url("/_control/faults"), { headers: this.headers(), data: fault });
  }

  /** Clears every fault of the account (control API). */
  async clearFaults(): Promise<void> {
    await this.json(await this.request.delete(this.url("/_control/faults"), { headers: this.headers() }));
  }

  /** The sandbox's test clock's day (yyyy-MM-dd): the operations' creation dates are on it. */
  async today(): Promise<string> {
    const response = await this.request.get(this.url("/_control/clock"), { headers: this.headers() });
    return ((await response.json()) as { now: string }).now.slice(0, 10);
  }
}

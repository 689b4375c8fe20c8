import "server-only";
import { z } from "zod";
import {
  ackRequestSchema,
  countryCodeSchema,
  ackResponseSchema,
  agenciesResponseSchema,
  cancelRequestSchema,
  createOperationRequestSchema,
  createdOperationSchema,
  financialOffersResponseSchema,
  healthResponseSchema,
  listOperationsQuerySchema,
  operationByExternalIdSchema,
  operationChangeResponseSchema,
  operationStatusResponseSchema,
  operationsPageSchema,
  refundBreakdownSchema,
  refundRequestSchema,
  startFinancingRequestSchema,
  startFinancingResponseSchema,
} from "./contract";
import { amountFromCents, decimalFromCents, moneyFromAmount } from "./money";
import { createMemoryStatusCache, type StatusCache } from "./status-cache";
import { createPartnerCaller, type PartnerCallOptions } from "./partner-call";
import {
  toFinancialOffer,
  toOperation,
  toWireCreateOperation,
  type Agency,
  type CreateOperationInput,
  type FinancialOffers,
  type Health,
  type ListOperationsInput,
  type Money,
  type Operation,
  type OperationChange,
  type OperationStatusInfo,
  type Page,
  type RefundBreakdown,
  type RefundInput,
  type StartFinancingResult,
  type WebhookEvent,
} from "./types";

export interface FinancingClientOptions extends PartnerCallOptions {
  /** Where the ETags of status reads are kept; in memory by default. */
  statusCache?: StatusCache;
}

/** The answer of a conditional status read. */
export type StatusRead =
  | { modified: true; status: OperationStatusInfo; etag: string | undefined }
  /** 304: the status is the one known from the previous read. */
  | { modified: false; status: OperationStatusInfo; etag: string };

export type FinancingClient = ReturnType<typeof createFinancingClient>;

/** A typed client for the partner API: one method per endpoint (docs/partner-api.md). */
export function createFinancingClient(options: FinancingClientOptions) {
  const statusCache = options.statusCache ?? createMemoryStatusCache();
  const { call, body, fail, validated, newRequestId } = createPartnerCaller(options);

  const seg = encodeURIComponent;

  return {
    /** GET /health: connectivity, key validity, version and the API's clock. */
    async health(): Promise<Health> {
      return body({ method: "GET", template: "/health", path: "/health", schema: healthResponseSchema, idempotent: true });
    },

    /** GET /financing/simulate/{totalPrice}: indicative offers; nothing is created. */
    async simulate(totalPrice: Money, params: { countryCode?: string } = {}): Promise<FinancialOffers> {
      const endpoint = "GET /financing/simulate/{totalPrice}";
      if (totalPrice.cents <= 0) {
        fail({
          kind: "invalid_request",
          endpoint,
          requestId: newRequestId(),
          fields: [{ field: "totalPrice", message: "must be greater than zero" }],
          message: `Invalid request for ${endpoint}: totalPrice must be greater than zero`,
        });
      }
      const query = validated(listCountrySchema, params, endpoint);
      const data = await body({
        method: "GET",
        template: "/financing/simulate/{totalPrice}",
        path: `/financing/simulate/${decimalFromCents(totalPrice.cents)}`,
        query: { countryCode: query.countryCode },
        schema: financialOffersResponseSchema,
        idempotent: true,
      });
      return toOffers(data);
    },

    /** POST /operations: idempotent per externalId, so a repeat after a lost answer is safe. */
    async createOperation(input: CreateOperationInput): Promise<Operation> {
      const requestBody = validated(createOperationRequestSchema, toWireCreateOperation(input), "POST /operations");
      const data = await body({
        method: "POST",
        template: "/operations",
        path: "/operations",
        body: requestBody,
        schema: createdOperationSchema,
        idempotent: true,
      });
      return toOperation(data);
    },

    /** GET /operations: one page, as Spring Data returns it. */
    async listOperations(input: ListOperationsInput = {}): Promise<Page<Operation>> {
      const query = validated(listOperationsQuerySchema, input, "GET /operations");
      const data = await body({
        method: "GET",
        template: "/operations",
        path: "/operations",
        query,
        schema: operationsPageSchema,
        idempotent: true,
      });
      return {
        content: data.content.map(toOperation),
        number: data.number,
        size: data.size,
        totalElements: data.totalElements,
        totalPages: data.totalPages,
        first: data.first,
        last: data.last,
      };
    },

    /** GET /operations/by-external-id/{externalId} */
    async getOperationByExternalId(externalId: string): Promise<Operation> {
      const id = validated(nonEmptyId, externalId, "GET /operations/by-external-id/{externalId}");
      const data = await body({
        method: "GET",
        template: "/operations/by-external-id/{externalId}",
        path: `/operations/by-external-id/${seg(id)}`,
        schema: operationByExternalIdSchema,
        idempotent: true,
      });
      return toOperation(data);
    },

    /** GET /financing/{operationIdentifier}: the offers this operation is eligible for. */
    async getOffers(operationId: string): Promise<FinancialOffers> {
      const id = validated(nonEmptyId, operationId, "GET /financing/{operationIdentifier}");
      const data = await body({
        method: "GET",
        template: "/financing/{operationIdentifier}",
        path: `/financing/${seg(id)}`,
        schema: financialOffersResponseSchema,
        idempotent: true,
      });
      return toOffers(data);
    },

    /** POST /financing: never retried, a repeat could start a second request at a provider. */
    async startFinancing(operationId: string, offerId: number): Promise<StartFinancingResult> {
      const requestBody = validated(
        startFinancingRequestSchema,
        { operationIdentifier: operationId, financialOfferId: offerId },
        "POST /financing",
      );
      const data = await body({
        method: "POST",
        template: "/financing",
        path: "/financing",
        body: requestBody,
        schema: startFinancingResponseSchema,
        idempotent: false,
      });
      return data.financingStatus === "REQUESTED"
        ? { financingStatus: "REQUESTED", paymentUrl: data.paymentUrl }
        : {
            financingStatus: data.financingStatus,
            paymentUrl: null,
            hasAlternativeFinancialOffers: data.hasAlternativeFinancialOffers,
          };
    },

    /**
     * GET /operations/{id}/status, conditional: the last ETag is sent as If-None-Match, and a 304
     * comes back as `modified: false` with the status known from before.
     */
    async getStatus(operationId: string): Promise<StatusRead> {
      const id = validated(nonEmptyId, operationId, "GET /operations/{id}/status");
      const known = await statusCache.get(id);
      const result = await call({
        method: "GET",
        template: "/operations/{id}/status",
        path: `/operations/${seg(id)}/status`,
        schema: operationStatusResponseSchema,
        idempotent: true,
        headers: known ? { "If-None-Match": known.etag } : undefined,
        notModifiedAllowed: known !== undefined,
      });
      if (result.kind === "not-modified") {
        // notModifiedAllowed is only set when `known` exists.
        const entry = known!;
        return { modified: false, status: entry.status, etag: entry.etag };
      }
      const status: OperationStatusInfo = {
        operationId: result.data.operationId,
        status: result.data.status,
        updatedAt: result.data.updatedAt,
      };
      const etag = result.headers.get("ETag") ?? undefined;
      if (etag !== undefined) await statusCache.set(id, { etag, status });
      return { modified: true, status, etag };
    },

    /** POST /operations/{id}/cancel: GENERATED, PENDING or ERROR only; never retried. */
    async cancelOperation(operationId: string, params: { reason?: string } = {}): Promise<OperationChange> {
      const endpoint = "POST /operations/{id}/cancel";
      const id = validated(nonEmptyId, operationId, endpoint);
      const requestBody = validated(cancelRequestSchema, params, endpoint);
      const data = await body({
        method: "POST",
        template: "/operations/{id}/cancel",
        path: `/operations/${seg(id)}/cancel`,
        body: requestBody,
        schema: operationChangeResponseSchema.optional(),
        idempotent: false,
        emptyBodyAllowed: true,
      });
      return { operationId: id, status: data?.status };
    },

    /** GET /operations/{id}/refund/details: what the customer would get back now. */
    async getRefundDetails(operationId: string): Promise<RefundBreakdown> {
      const id = validated(nonEmptyId, operationId, "GET /operations/{id}/refund/details");
      const data = await body({
        method: "GET",
        template: "/operations/{id}/refund/details",
        path: `/operations/${seg(id)}/refund/details`,
        schema: refundBreakdownSchema,
        idempotent: true,
      });
      const m = (value: { amount: number; currency: string }) => moneyFromAmount(value.amount, value.currency);
      return {
        operationId: data.operationId,
        totalReserve: m(data.totalReserve),
        managementFees: m(data.managementFees),
        serviceCancellationFee: m(data.fliinowCancellationFee),
        serviceCancellationFeePercentage: data.fliinowCancellationFeePercentage,
        totalToRefund: m(data.totalToRefund),
      };
    },

    /** POST /operations/{id}/refund: CONFIRMED only; never retried (money moves). */
    async refund(operationId: string, params: RefundInput = {}): Promise<OperationChange> {
      const endpoint = "POST /operations/{id}/refund";
      const id = validated(nonEmptyId, operationId, endpoint);
      const requestBody = validated(
        refundRequestSchema,
        {
          agencyCancellationFee: params.agencyCancellationFee && amountFromCents(params.agencyCancellationFee.cents),
          providerCancellationFee: params.providerCancellationFee && amountFromCents(params.providerCancellationFee.cents),
          reason: params.reason,
        },
        endpoint,
      );
      const data = await body({
        method: "POST",
        template: "/operations/{id}/refund",
        path: `/operations/${seg(id)}/refund`,
        body: requestBody,
        schema: operationChangeResponseSchema.optional(),
        idempotent: false,
        emptyBodyAllowed: true,
      });
      return { operationId: id, status: data?.status };
    },

    /** GET /agencies: management group keys only, and the one call without the agency header. */
    async listAgencies(): Promise<Agency[]> {
      return body({
        method: "GET",
        template: "/agencies",
        path: "/agencies",
        schema: agenciesResponseSchema,
        idempotent: true,
        withAgency: false,
      });
    },

    /** PUT /operations/webhook-events/ack: the same three fields the webhook carried; safe to repeat. */
    async acknowledgeWebhookEvent(event: WebhookEvent): Promise<void> {
      const requestBody = validated(ackRequestSchema, event, "PUT /operations/webhook-events/ack");
      await body({
        method: "PUT",
        template: "/operations/webhook-events/ack",
        path: "/operations/webhook-events/ack",
        body: requestBody,
        schema: ackResponseSchema,
        idempotent: true,
        emptyBodyAllowed: true,
      });
    },
  };
}

// ---------------------------------------------------------------------------------------------

const nonEmptyId = z.string().trim().min(1, "must not be empty");
const listCountrySchema = z.object({ countryCode: countryCodeSchema.optional() });

function toOffers(data: z.infer<typeof financialOffersResponseSchema>): FinancialOffers {
  return { currency: data.currency, offers: data.financialOffers.map((offer) => toFinancialOffer(offer, data.currency)) };
}

"use server";

import { randomBytes } from "node:crypto";
import { redirect } from "next/navigation";
import { z } from "zod";
import { AppError } from "@/lib/app-error";
import { createSessionSchema } from "@/lib/checkout/session/booking";
import { getAppContext } from "@/lib/app-context";
import { DEMO_PARTNER_ID } from "@/lib/demo/seed";
import { createDemoShopBudget, takeDemoShopPress, type DemoShopBudget } from "@/lib/demo/shop-budget";
import { requestIp } from "@/lib/identity/staff";
import { getEnv } from "@/lib/config/env";
import { partnerById } from "@/lib/partners/partners";
import { createSession } from "@/lib/checkout/session/sessions";
import { getLocale } from "@/lib/i18n/server";
import { validatedAction } from "@/lib/validated-action";
import { sampleTrip } from "./demo-trip";

/**
 * The demo shop's "Pay in installments": opens a checkout session for the sample trip the way a
 * partner's backend does (docs/contributors/architecture.md, "The checkout as data moves"), but in-process, for the seeded demo partner.
 */
let shopBudget: DemoShopBudget | undefined;

const startDemoValidated = validatedAction(z.object({}), async () => {
  // Unauthenticated by design (a demo): never with the production API, where it would open real
  // operations. The demo partner is not there either (lib/startup.ts); this does not rely on it.
  // Refused quietly (back to the home page, which offers no demo there): a probe is not an error.
  const env = getEnv();
  if (env.financing.environment !== "sandbox") return { ok: false as const, invalid: [] };
  shopBudget ??= createDemoShopBudget(env.demoShopBudget);
  if (!takeDemoShopPress(shopBudget, await requestIp())) return { ok: false as const, busy: true };
  const ctx = await getAppContext();
  const partner = await partnerById(ctx.db, DEMO_PARTNER_ID);
  if (!partner) throw new AppError("not_found", "The demo partner is not configured");
  const locale = await getLocale();
  const trip = sampleTrip(locale);
  const input = createSessionSchema.parse({
    booking: {
      // A fresh reference each time: every click is a new booking, not a repeat of the last one.
      bookingReference: `DEMO-${randomBytes(6).toString("hex").toUpperCase()}`,
      packageName: trip.packageName,
      packageTravel: true,
      travellers: trip.travellers,
      totalPrice: trip.totalPrice,
      flights: trip.flights,
      hotels: trip.hotels,
    },
    customer: { firstName: "Ana", lastName: "García López" },
    returnUrl: `${ctx.appUrl}/`,
    locale,
  });
  const { session } = await createSession(ctx.db, partner, input);
  return { ok: true as const, sessionId: session.id };
});

export async function startDemoCheckout(formData: FormData): Promise<void> {
  const outcome = await startDemoValidated(undefined, formData);
  redirect(outcome.ok ? `/checkout/${outcome.sessionId}` : "busy" in outcome ? "/?demo=busy" : "/");
}

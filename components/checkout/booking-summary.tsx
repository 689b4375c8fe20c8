import type { Booking } from "@/lib/checkout/session/booking";
import { bookingTotalCents } from "@/lib/checkout/session/booking";
import { formatAmount, formatDate } from "@/lib/i18n/format";
import type { Locale } from "@/lib/i18n/locales";
import type { Messages } from "@/lib/i18n/messages";

/** What the customer is paying for, as the partner sent it. */
export function BookingSummary({ booking, locale, messages }: { booking: Booking; locale: Locale; messages: Messages }) {
  const m = messages.booking;
  const date = (iso: string) => formatDate(iso, locale);
  const total = formatAmount({ cents: bookingTotalCents(booking), currency: booking.totalPrice.currency }, locale);
  return (
    <section aria-labelledby="booking-heading" className="rounded-card bg-surface p-4 shadow-sm sm:p-5">
      <h2 id="booking-heading" className="text-sm font-semibold tracking-wide text-muted uppercase">
        {m.heading}
      </h2>
      <p className="mt-1 text-lg font-semibold">{booking.packageName}</p>
      <p className="text-muted">
        {m.travellers(booking.travellers)} · {m.reference} {booking.bookingReference}
      </p>
      <dl className="mt-3 space-y-3">
        {booking.flights.length > 0 ? (
          <div>
            <dt className="font-semibold">{m.flights}</dt>
            {booking.flights.map((flight, index) => (
              <dd key={index}>
                {m.flightLine(flight.origin, flight.destination)}
                {flight.carrier ? ` · ${flight.carrier}` : ""}
                <br />
                <span className="text-muted">
                  {m.flightDates(date(flight.departureDate), flight.returnDate ? date(flight.returnDate) : undefined)}
                </span>
              </dd>
            ))}
          </div>
        ) : null}
        {booking.hotels.length > 0 ? (
          <div>
            <dt className="font-semibold">{m.hotels}</dt>
            {booking.hotels.map((hotel, index) => (
              <dd key={index}>
                {hotel.name}
                {hotel.city ? `, ${hotel.city}` : ""}
                <br />
                <span className="text-muted">{m.hotelDates(date(hotel.checkInDate), date(hotel.checkOutDate))}</span>
              </dd>
            ))}
          </div>
        ) : null}
        {booking.services.length > 0 ? (
          <div>
            <dt className="font-semibold">{m.services}</dt>
            {booking.services.map((service, index) => (
              <dd key={index}>{service.description}</dd>
            ))}
          </div>
        ) : null}
        <div className="flex items-baseline justify-between gap-4 border-t border-divider pt-3">
          <dt className="font-semibold">{m.total}</dt>
          <dd className="text-xl font-bold">{total}</dd>
        </div>
      </dl>
    </section>
  );
}

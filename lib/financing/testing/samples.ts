import { money } from "../money";
import type { ClientData, CreateOperationInput } from "../types";

/** A customer whose data passes every rule of the contract; tests change what they exercise. */
export const SAMPLE_CLIENT: ClientData = {
  firstName: "Ana",
  lastName: "García",
  email: "ana@example.com",
  prefix: "+34",
  phone: "600123123",
  documentId: "12345678Z",
  documentValidityDate: "2030-01-31",
  gender: "FEMALE",
  birthDate: "1990-07-04",
  nationality: "ESP",
  address: "Calle Mayor 1",
  city: "Madrid",
  postalCode: "28013",
  countryCode: "ESP",
};

/** SAMPLE_CLIENT as it travels on the wire (body dates dd-MM-yyyy): for tests that post raw JSON. */
export const SAMPLE_WIRE_CLIENT = {
  ...SAMPLE_CLIENT,
  documentValidityDate: "31-01-2030",
  birthDate: "04-07-1990",
} as const;

/** A trip of 1,234.50 EUR with a flight, ready for createOperation. */
export function sampleBooking(overrides: Partial<CreateOperationInput> = {}): CreateOperationInput {
  return {
    externalId: "BK-1",
    packageName: "Lisbon, 4 nights",
    packageTravel: true,
    travelersNumber: 2,
    totalPrice: money(123450),
    client: SAMPLE_CLIENT,
    flights: [{ origin: "MAD", destination: "LIS", departureDate: "2027-05-01", returnDate: "2027-05-05" }],
    ...overrides,
  };
}

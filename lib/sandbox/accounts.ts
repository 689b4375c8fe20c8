/**
 * The sandbox's seeded credentials and agencies, exactly as the QA guide (docs/qa/README.md) lists them, so anyone's
 * automation can rely on them.
 */

export interface SandboxAgency {
  id: number;
  tradeName: string;
  address: string;
  postalCode: string;
  city: string;
  countryCode: string;
  active: boolean;
}

export interface SandboxKey {
  key: string;
  kind: "agency" | "group";
  /** Operations belong to agencies; a key reaches the agencies listed here. */
  agencyIds: readonly number[];
  partnerCode: string;
  /**
   * The sandbox account the key opens: its own test clock, faults and operations (those created
   * with this key). The control API acts on it; `?account=` names it with the QA token.
   */
  account: string;
}

export const AGENCIES: readonly SandboxAgency[] = [
  { id: 101, tradeName: "Viajes Aurora", address: "Gran Vía 28", postalCode: "28013", city: "Madrid", countryCode: "ESP", active: true },
  {
    id: 102,
    tradeName: "Viajes Brisa",
    address: "Passeig de Gràcia 12",
    postalCode: "08007",
    city: "Barcelona",
    countryCode: "ESP",
    active: true,
  },
  {
    id: 103,
    tradeName: "Viajes Cierzo",
    address: "Calle Alfonso I 5",
    postalCode: "50003",
    city: "Zaragoza",
    countryCode: "ESP",
    active: false,
  },
  {
    id: 201,
    tradeName: "Rutas del Sur",
    address: "Avenida de la Constitución 3",
    postalCode: "41004",
    city: "Sevilla",
    countryCode: "ESP",
    active: true,
  },
];

export const KEYS: readonly SandboxKey[] = [
  { key: "fk_test_sandbox_agency_101", kind: "agency", agencyIds: [101], partnerCode: "AURORA", account: "agency_101" },
  { key: "fk_test_sandbox_agency_201", kind: "agency", agencyIds: [201], partnerCode: "RUTASSUR", account: "agency_201" },
  { key: "fk_test_sandbox_group_1", kind: "group", agencyIds: [101, 102, 103], partnerCode: "GRUPO1", account: "group_1" },
];

export const TEST_KEY_PREFIX = "fk_test_";
export const LIVE_KEY_PREFIX = "fk_live_";

/**
 * A seeded key as the sandbox takes it in its production-like mode (SANDBOX_PRODUCTION_LIKE): the
 * same key with the production prefix, `fk_live_sandbox_agency_101`. The accounts, agencies and
 * rules are the same; only the keys' kind changes, as the production API's would.
 */
export function liveKeyOf(key: SandboxKey): string {
  return `${LIVE_KEY_PREFIX}${key.key.slice(TEST_KEY_PREFIX.length)}`;
}

/**
 * The seeded key this is: a `fk_test_` key on the sandbox; in the production-like mode its
 * `fk_live_` form, and never a `fk_test_` one (production refuses sandbox keys).
 */
export function findKey(key: string, productionLike = false): SandboxKey | undefined {
  return KEYS.find((k) => (productionLike ? liveKeyOf(k) : k.key) === key);
}

export function findAgency(id: number): SandboxAgency | undefined {
  return AGENCIES.find((a) => a.id === id);
}

export const ACCOUNTS: readonly string[] = KEYS.map((k) => k.account);

export function isAccount(value: string): boolean {
  return ACCOUNTS.includes(value);
}

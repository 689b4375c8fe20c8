/**
 * The screenshots the docs show, as `npm run docs:screenshots` (scripts/docs/screenshots.ts) takes
 * them from the running app: the back-office guide's in each language of the admin UI, and the
 * checkout on a phone for the README. Pure: the screenshot script takes exactly these, and
 * scripts/docs/screenshots.test.ts checks that the guides show exactly these and that each is there.
 */

/** The back-office's pages and steps the staff guide shows, one image each per language, in the order they are taken. */
export const STAFF_SHOTS = [
  "sign-in",
  "second-step",
  "home",
  "operations",
  "operation",
  "cancel",
  "refund",
  "refund-review",
  "simulator",
  "payment-link-new",
  "payment-link",
  "payment-link-email",
  "notifications",
  "audit",
  "team",
  "invitation",
  // After the invitation: its link opens the enrolment.
  "enrolment",
  "team-member",
  "api-secrets",
  "security",
] as const;
export type StaffShot = (typeof STAFF_SHOTS)[number];

/** The admin UI's languages (lib/i18n/admin-messages.ts), each with its own guide. */
export const GUIDE_LANGUAGES = ["en", "es"] as const;
export type GuideLanguage = (typeof GUIDE_LANGUAGES)[number];

/** The staff guide of a language, from the repository's root. */
export function staffGuide(language: GuideLanguage): string {
  return `docs/staff/back-office.${language}.md`;
}

/** Where a back-office screenshot is written, from the repository's root. */
export function staffImage(language: GuideLanguage, shot: StaffShot): string {
  return `docs/staff/img/${language}/${shot}.png`;
}

/** The checkout's plan choice on a 390 px wide phone, for the README. */
export const CHECKOUT_PHONE_IMAGE = "docs/img/checkout-phone.png";

/** Every image the script writes, from the repository's root. */
export function declaredImages(): string[] {
  return [...GUIDE_LANGUAGES.flatMap((language) => STAFF_SHOTS.map((shot) => staffImage(language, shot))), CHECKOUT_PHONE_IMAGE];
}

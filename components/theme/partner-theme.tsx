import type { Theme } from "@/lib/theme/theme";
import { themeStylesheetHref } from "@/lib/theme/urls";

/**
 * A checkout page in its partner's colours: the partner's theme as a stylesheet of CSS variables
 * over the Tailwind theme (`:root { --color-brand: … }`). React hoists it into <head> and holds the
 * page until it has loaded, so the default colours never flash. No theme: the default look.
 */
export function PartnerTheme({ partnerId, theme }: { partnerId: string; theme: Theme | undefined }) {
  if (!theme) return null;
  return <link rel="stylesheet" href={themeStylesheetHref(partnerId, theme)} precedence="default" />;
}

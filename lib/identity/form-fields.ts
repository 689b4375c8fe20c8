import { z } from "zod";
import { safeText } from "@/lib/validation/text";

/** A TOTP or recovery code as a form posts it (checked by the second factor's rules, not here). */
export const staffCodeField = z.string().check(safeText()).max(40).default("");

/** A password as a form posts it: any characters, bounded (the password rules judge it). */
export const staffPasswordField = z.string().max(1000).default("");

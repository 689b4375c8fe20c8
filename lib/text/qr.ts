import "server-only";
import QRCode from "qrcode";

/**
 * A QR code drawn on the server as SVG (paths only: no script, no image request), for the
 * two-step enrolment's otpauth URI and for payment links.
 */
export function qrSvg(text: string): Promise<string> {
  return QRCode.toString(text, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
}

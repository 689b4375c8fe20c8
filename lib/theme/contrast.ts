/**
 * WCAG 2.x colour contrast: relative luminance of sRGB colours and the contrast ratio between two,
 * (L1 + 0.05) / (L2 + 0.05) with L1 the lighter. AA asks 4.5:1 for body text and 3:1 for large text
 * and for the edges of controls (1.4.3, 1.4.11). Colours are `#rrggbb`; nothing here touches the DOM,
 * so the checks run wherever a theme is set (back-office, seed, tests).
 */

export type Rgb = readonly [number, number, number];

const HEX = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i;

export function isHexColor(value: string): boolean {
  return HEX.test(value);
}

export function parseHex(hex: string): Rgb {
  const match = HEX.exec(hex);
  if (!match) throw new RangeError(`not a #rrggbb colour: ${hex}`);
  return [parseInt(match[1]!, 16), parseInt(match[2]!, 16), parseInt(match[3]!, 16)];
}

export function toHex([r, g, b]: Rgb): string {
  return `#${[r, g, b]
    .map((c) =>
      Math.round(Math.min(255, Math.max(0, c)))
        .toString(16)
        .padStart(2, "0"),
    )
    .join("")}`;
}

/** The WCAG definition: each sRGB channel linearised, then weighted 0.2126 / 0.7152 / 0.0722. */
export function relativeLuminance(color: string | Rgb): number {
  const [r, g, b] = (typeof color === "string" ? parseHex(color) : color).map((channel) => {
    const c = channel / 255;
    // WCAG 2.x writes 0.03928; the sRGB standard's 0.04045 gives the same result for 8-bit values.
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The contrast ratio, from 1 (same colour) to 21 (black on white). Order does not matter. */
export function contrastRatio(a: string | Rgb, b: string | Rgb): number {
  const la = relativeLuminance(a);
  const lb = relativeLuminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/**
 * A ratio as people write it, rounded *down* to two decimals: 4.499 must never read "4.5:1" next to
 * "is below 4.5:1". Trailing zeros go ("2.1:1", "21:1").
 */
export function formatRatio(ratio: number): string {
  const truncated = Math.floor(ratio * 100 + 1e-9) / 100;
  return `${Number(truncated.toFixed(2))}:1`;
}

/** `a` moved towards `b` by `amount` (0: a, 1: b), channel by channel in sRGB. */
export function mix(a: string, b: string, amount: number): string {
  const ca = parseHex(a);
  const cb = parseHex(b);
  return toHex([0, 1, 2].map((i) => ca[i]! + (cb[i]! - ca[i]!) * amount) as unknown as Rgb);
}

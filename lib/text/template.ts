/**
 * Fills `{name}` placeholders; an unknown name stays as written, so a missing value shows rather
 * than vanishing. Apart from the messages so a client component's bundle carries only this (a
 * function cannot cross the server/client boundary; the strings can).
 */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(values, name) ? String(values[name]) : whole));
}

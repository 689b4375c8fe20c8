/**
 * Fills `{name}` placeholders in the strings handed to client components (functions cannot cross
 * the server/client boundary). Apart from the messages so a client bundle carries only this.
 */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(values, name) ? String(values[name]) : whole));
}

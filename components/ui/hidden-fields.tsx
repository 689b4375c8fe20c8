/** Values a form sends along unseen (its context: an id, the embedded mode). */
export function HiddenFields({ fields }: { fields: Record<string, string | number> }) {
  return Object.entries(fields).map(([name, value]) => <input key={name} type="hidden" name={name} value={value} />);
}

/** Class names joined, the empty ones (false, undefined, "") left out. */
export function cx(...names: (string | false | null | undefined)[]): string {
  return names.filter(Boolean).join(" ");
}

import { useLayoutEffect, type RefObject } from "react";

/*
 * What the customer typed in the details form, kept across the language switch (with JavaScript).
 * The switch is a server action that sets the language cookie and redirects to the same page, or,
 * in the embedded checkout, a link to the same page with the language in its URL; either way Next
 * then mounts the page anew, in the same document, and a new form takes the server's values: what
 * was typed and not yet sent was lost. So when the switch (`data-language-switch`: the form
 * submitted, or the link clicked) is used, the values of the form are noted here, in this page's
 * memory only (never in storage: they are personal data), and the form mounted next for the same
 * session, within a minute, takes them back. Without JavaScript the switch is a plain post or link
 * and a new page: the fields show what the server has (the partner's prefill, or what was sent).
 */

const KEEP_FOR_MS = 60_000;

let kept: { sessionId: string; at: number; values: [string, string][] } | undefined;

/** The named controls' values (hidden ones excepted: the server writes those), radios as the one checked. */
function typedValues(form: HTMLFormElement): [string, string][] {
  const values: [string, string][] = [];
  for (const element of Array.from(form.elements)) {
    if (!(element instanceof HTMLInputElement || element instanceof HTMLSelectElement || element instanceof HTMLTextAreaElement)) continue;
    if (!element.name || element.type === "hidden" || element.type === "submit") continue;
    if (element instanceof HTMLInputElement && (element.type === "radio" || element.type === "checkbox") && !element.checked) continue;
    values.push([element.name, element.value]);
  }
  return values;
}

function restore(form: HTMLFormElement, values: [string, string][]): void {
  for (const [name, value] of values) {
    const control = form.elements.namedItem(name);
    // A group of radios is a RadioNodeList: setting its value checks the radio with that value.
    if (control instanceof RadioNodeList || control instanceof HTMLInputElement || control instanceof HTMLSelectElement)
      control.value = value;
  }
}

/** On the details form: notes its values when the language switch is sent, and takes them back when mounted again. */
export function useKeptAcrossLanguageSwitch(form: RefObject<HTMLFormElement | null>, sessionId: string): void {
  useLayoutEffect(() => {
    if (kept?.sessionId === sessionId && Date.now() - kept.at < KEEP_FOR_MS && form.current) restore(form.current, kept.values);
    kept = undefined;
    const note = (event: Event) => {
      // The switch's form submitted, or its link (or its button) clicked, on it or on the text inside.
      const used = event.target instanceof Element && event.target.closest("[data-language-switch]");
      if (!used || !form.current) return;
      kept = { sessionId, at: Date.now(), values: typedValues(form.current) };
    };
    document.addEventListener("submit", note, true);
    document.addEventListener("click", note, true);
    return () => {
      document.removeEventListener("submit", note, true);
      document.removeEventListener("click", note, true);
    };
  }, [form, sessionId]);
}

"use client";

import { useEffect } from "react";

/**
 * Keeps <html lang> in step with the page's language when the root layout could not know it (a
 * checkout session's own locale, with no cookie yet). The content itself already carries `lang`,
 * so without JavaScript assistive technology still reads it in the right language.
 */
export function HtmlLang({ lang }: { lang: string }) {
  useEffect(() => {
    document.documentElement.lang = lang;
  }, [lang]);
  return null;
}

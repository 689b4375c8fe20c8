import { useEffect, useRef } from "react";

/**
 * A ref for what a form's answer should bring the reader to (an error summary, a new step's
 * heading): once the form has been sent (`submission` > 0) and `when` holds, it gets the focus,
 * each time the action answers. Without JavaScript, the element's autofocus does the same.
 */
export function useFocusAfterSubmit<T extends HTMLElement>(submission: number, when = true) {
  const ref = useRef<T>(null);
  useEffect(() => {
    if (submission > 0 && when) ref.current?.focus();
  }, [submission, when]);
  return ref;
}

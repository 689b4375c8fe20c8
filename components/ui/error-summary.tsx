import type { ReactNode, Ref } from "react";

/**
 * What is wrong with a form, above it, under a heading. A form that re-renders after a submit
 * makes it `focusable`: it takes the focus (autofocus without JavaScript, the form's ref with it),
 * so it is read first. `role` says how it is announced: "group" for a list of errors the reader
 * walks through, "alert" for one message read at once; none makes it a labelled region.
 */
export function ErrorSummary({
  titleId,
  title,
  role,
  focusable = false,
  ref,
  children,
}: {
  titleId: string;
  title: string;
  role?: "group" | "alert";
  focusable?: boolean;
  ref?: Ref<HTMLDivElement>;
  children: ReactNode;
}) {
  const heading = (
    <h2 id={titleId} className="text-lg font-bold">
      {title}
    </h2>
  );
  const className = "rounded-card border-4 border-danger bg-surface p-4";
  if (!role) {
    return (
      <section aria-labelledby={titleId} className={className}>
        {heading}
        {children}
      </section>
    );
  }
  return (
    <div
      ref={ref}
      role={role}
      aria-labelledby={titleId}
      tabIndex={focusable ? -1 : undefined}
      // Without JavaScript the page is new after a submit: autofocus brings the reader here.
      autoFocus={focusable}
      className={className}
    >
      {heading}
      {children}
    </div>
  );
}

/**
 * A form's one message (a refused sign-in, an invitation that could not be made), as an alert that
 * takes the focus after the submit; nothing without a message. `id` names the message, for the
 * fields it is about to point at (aria-describedby).
 */
export function ErrorMessage({
  id,
  titleId,
  title,
  message,
  ref,
}: {
  id: string;
  titleId: string;
  title: string;
  message: string | undefined;
  ref?: Ref<HTMLDivElement>;
}) {
  return message ? (
    <ErrorSummary ref={ref} titleId={titleId} title={title} role="alert" focusable>
      <p id={id} className="mt-1">
        {message}
      </p>
    </ErrorSummary>
  ) : null;
}

import { TextLink } from "./text-link";

/**
 * Previous / page n of N / next, for a list paged in its address: `hrefOf` gives a page's link
 * (with the list's filters), so the pager works without JavaScript.
 */
export function Pager({
  label,
  page,
  totalPages,
  hrefOf,
  text,
}: {
  /** Names the navigation region. */
  label: string;
  page: number;
  totalPages: number;
  hrefOf: (page: number) => string;
  text: { previous: string; next: string; page: (page: number, totalPages: number) => string };
}) {
  return (
    <nav aria-label={label} className="flex flex-wrap items-center gap-4">
      {page > 1 ? (
        <TextLink href={hrefOf(Math.min(page - 1, totalPages))} rel="prev">
          {text.previous}
        </TextLink>
      ) : null}
      <span aria-current="page">{text.page(page, totalPages)}</span>
      {page < totalPages ? (
        <TextLink href={hrefOf(page + 1)} rel="next">
          {text.next}
        </TextLink>
      ) : null}
    </nav>
  );
}

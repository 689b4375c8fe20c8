import Link from "next/link";

/** A frame's sections as tabs: the current one marked for the eye and for a screen reader. */
export function SectionNav({
  label,
  items,
}: {
  label: string;
  items: readonly { key: string; href: string; text: string; current: boolean }[];
}) {
  return (
    <nav aria-label={label}>
      <ul className="flex flex-wrap gap-1">
        {items.map(({ key, href, text, current }) => (
          <li key={key}>
            <Link
              href={href}
              aria-current={current ? "page" : undefined}
              className="inline-flex min-h-11 items-center rounded-md px-3 font-semibold text-brand underline-offset-4 hover:bg-brand-soft aria-[current=page]:bg-brand aria-[current=page]:text-brand-contrast"
            >
              {text}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

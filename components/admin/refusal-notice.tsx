import { LinkButton } from "@/components/ui/link-button";

/** The body of the consoles' 404 and 403 pages: what happened, and the one way on. */
export function RefusalNotice({ title, body, href, linkText }: { title: string; body: string; href: string; linkText: string }) {
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-3xl font-bold">{title}</h1>
      <p className="text-lg">{body}</p>
      <div>
        <LinkButton href={href}>{linkText}</LinkButton>
      </div>
    </div>
  );
}

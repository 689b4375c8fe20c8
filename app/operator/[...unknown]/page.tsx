import { notFound } from "next/navigation";

/** Any other address under /operator: the console's own 404 (../not-found.tsx), not the checkout's. */
export default function UnknownOperatorPage() {
  notFound();
}

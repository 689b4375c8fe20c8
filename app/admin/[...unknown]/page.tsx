import { notFound } from "next/navigation";

/** Any other address under /admin: the back-office's own 404 (../not-found.tsx), not the checkout's. */
export default function UnknownAdminPage() {
  notFound();
}

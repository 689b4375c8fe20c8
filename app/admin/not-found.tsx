import { AdminRefusal } from "./refusal";

/** An address of the back-office that does not exist, or a thing in it that is not this partner's: 404, in its frame. */
export default function AdminNotFound() {
  return <AdminRefusal refusal="notFound" />;
}

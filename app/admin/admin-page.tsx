import { AdminFrame, type AdminFrameProps } from "@/components/admin/admin-frame";
import { signOutAction, switchAgencyAction } from "./actions";

const ACTIONS: AdminFrameProps["actions"] = { signOut: signOutAction, switchAgency: switchAgencyAction };

/** A signed-in back-office page: the frame, its forms wired to the back-office's server actions. */
export function AdminPage(props: Omit<AdminFrameProps, "actions">) {
  return <AdminFrame actions={ACTIONS} {...props} />;
}

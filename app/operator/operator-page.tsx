import { OperatorFrame, type OperatorFrameProps } from "@/components/operator/operator-frame";
import { signOutAction } from "@/app/admin/actions";
import { getAdminMessages } from "@/lib/i18n/admin-messages";
import { getOperatorMessages } from "@/lib/i18n/operator-messages";

/**
 * A signed-in console page: the frame in the page's language, its sign-out wired to the shared
 * sign-in's action.
 */
export function OperatorPage(props: Omit<OperatorFrameProps, "signOut" | "m" | "admin">) {
  return <OperatorFrame signOut={signOutAction} m={getOperatorMessages(props.locale)} admin={getAdminMessages(props.locale)} {...props} />;
}

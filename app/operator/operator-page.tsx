import { OperatorFrame, type OperatorFrameProps } from "@/components/operator/operator-frame";
import { signOutAction } from "@/app/admin/actions";

/** A signed-in console page: the frame, its sign-out wired to the shared sign-in's action. */
export function OperatorPage(props: Omit<OperatorFrameProps, "signOut">) {
  return <OperatorFrame signOut={signOutAction} {...props} />;
}

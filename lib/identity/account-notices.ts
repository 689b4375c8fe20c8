import "server-only";
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { partners, staffUsers } from "@/lib/db/schema";
import { loggerFor } from "@/lib/logger";
import { accountNoticeEmail, type AccountNoticeInput } from "@/lib/mail/account-notice-email";
import { mailFailure } from "@/lib/mail/failure";
import { getMailer, type Mailer } from "@/lib/mail/mailer";

/**
 * People told when their account changes, by e-mail when a mail server is configured: their password
 * changed or was reset, an administrator reset their second factor or changed their role or
 * permissions; a partner's administrators when an API secret is created. A notice never fails the
 * change it tells of: a send that fails is logged with ids and the mail error's code, never an
 * address, a name or the server's words.
 */

const log = loggerFor("backoffice");

/** The mail server to use; `{ mailer: undefined }` says none (tests), nothing says the configured one. */
export interface NoticeOptions {
  mailer?: Mailer | undefined;
  now?: Date;
}

function mailerOf(options: NoticeOptions): Mailer | undefined {
  return "mailer" in options ? options.mailer : getMailer();
}

type MemberNotice = Omit<AccountNoticeInput, "organisation" | "at">;

/** E-mails the account holder what changed. Returns whether a notice went out. */
export async function noticeAccountChange(db: Db, userId: string, notice: MemberNotice, options: NoticeOptions = {}): Promise<boolean> {
  const mailer = mailerOf(options);
  if (!mailer) return false;
  try {
    const [holder] = await db
      .select({ email: staffUsers.email, invitedElsewhere: staffUsers.invitedElsewhereEmail, organisation: partners.name })
      .from(staffUsers)
      .leftJoin(partners, eq(partners.id, staffUsers.partnerId))
      .where(eq(staffUsers.id, userId))
      .limit(1);
    if (!holder) return false;
    // An invitation to an address with an account elsewhere is told that, and nothing else: it is nobody's account here.
    if ((holder.invitedElsewhere !== null) !== (notice.kind === "invited-elsewhere")) return false;
    return await send(
      mailer,
      holder.invitedElsewhere ?? holder.email,
      { ...notice, organisation: holder.organisation ?? "Back-office", at: options.now ?? new Date() },
      { userId },
    );
  } catch (error) {
    log.warn({ userId, kind: notice.kind, ...mailFailure(error) }, "backoffice: an account notice could not be sent");
    return false;
  }
}

/** E-mails every enabled administrator of the partner that an API secret was created, and by whom. */
export async function noticeApiSecretCreated(
  db: Db,
  partnerId: string,
  secret: { name: string; by: string },
  options: NoticeOptions = {},
): Promise<number> {
  const mailer = mailerOf(options);
  if (!mailer) return 0;
  try {
    const admins = await db
      .select({ id: staffUsers.id, email: staffUsers.email, organisation: partners.name })
      .from(staffUsers)
      .innerJoin(partners, eq(partners.id, staffUsers.partnerId))
      .where(
        and(
          eq(staffUsers.partnerId, partnerId),
          eq(staffUsers.role, "admin"),
          isNull(staffUsers.disabledAt),
          isNull(staffUsers.invitedElsewhereEmail),
        ),
      );
    const at = options.now ?? new Date();
    let sent = 0;
    for (const admin of admins) {
      const content = { kind: "api-secret-created" as const, organisation: admin.organisation, at, by: secret.by, secretName: secret.name };
      if (await send(mailer, admin.email, content, { userId: admin.id })) sent++;
    }
    return sent;
  } catch (error) {
    log.warn({ partnerId, ...mailFailure(error) }, "backoffice: the new API secret notice could not be sent");
    return 0;
  }
}

async function send(mailer: Mailer, to: string, notice: AccountNoticeInput, ids: { userId: string }): Promise<boolean> {
  try {
    const { messageId } = await mailer.send({ ...accountNoticeEmail(notice), to, fromName: notice.organisation });
    log.info({ ...ids, kind: notice.kind, messageId }, "backoffice: account notice e-mailed");
    return true;
  } catch (error) {
    log.warn({ ...ids, kind: notice.kind, ...mailFailure(error) }, "backoffice: an account notice could not be sent");
    return false;
  }
}

import { randomBytes } from 'node:crypto';
import { ACCOUNT_LINK_PATHS, type AccountLinkKind, type LinkDelivery } from '@switchyard/domain';
import type { FastifyBaseLogger } from 'fastify';
import { hashToken } from '../../auth/sessions.js';
import { type AccountEmail, accountEmail } from '../../mail/account-emails.js';
import type { Mailer } from '../../mail/mailer.js';

const TOKEN_BYTES = 32;

/** A link token (256 random bits, base64url) and the SHA-256 that is stored instead of it. */
export function newLinkToken(): { token: string; hash: string } {
  const token = randomBytes(TOKEN_BYTES).toString('base64url');
  return { token, hash: hashToken(token) };
}

export type OutgoingEmail = Omit<AccountEmail, 'link'> & { path: string };

/**
 * Gets a link to the person it is for: by email when SMTP is configured, otherwise (or when sending
 * fails) back to the caller, who shows an invitation link to the administrator. The log says that a
 * link was made and for whom; the link itself only with SWITCHYARD_LOG_LINKS=true, since whoever reads
 * the log could otherwise take over the account it opens.
 */
export class LinkSender {
  constructor(
    private readonly mailer: Mailer | null,
    private readonly publicUrl: string | undefined,
    private readonly log: FastifyBaseLogger,
    private readonly logLinks: boolean,
  ) {}

  get sendsEmail(): boolean {
    return this.mailer !== null;
  }

  /** Absolute when the public URL is known; otherwise the path, which the dashboard completes. */
  url(path: string): string {
    return this.publicUrl ? `${this.publicUrl}${path}` : path;
  }

  tokenPath(kind: AccountLinkKind, token: string): string {
    return `${ACCOUNT_LINK_PATHS[kind]}/${token}`;
  }

  async send(email: OutgoingEmail): Promise<LinkDelivery> {
    const link = this.url(email.path);
    const logged = this.logLinks ? { link } : {};
    const where = this.logLinks ? `: ${link}` : ' (SWITCHYARD_LOG_LINKS=true writes the link here)';
    if (!this.mailer) {
      this.log.warn(
        { mail: email.kind, to: email.to, ...logged },
        `No SMTP_URL: a link was made for ${email.to} (${email.kind})${where}`,
      );
      return { sent: false, link };
    }
    try {
      await this.mailer.send(accountEmail({ ...email, link }));
      this.log.info({ mail: email.kind, to: email.to }, 'account email sent');
      return { sent: true };
    } catch (error) {
      this.log.error(
        { err: error, mail: email.kind, to: email.to, ...logged },
        `Sending the ${email.kind} email to ${email.to} failed: a link was made for ${email.to}${where}`,
      );
      return { sent: false, link };
    }
  }

  /** Off the request path: the answer must not wait for (or reveal) the SMTP exchange. */
  sendLater(email: OutgoingEmail): void {
    void this.send(email);
  }
}

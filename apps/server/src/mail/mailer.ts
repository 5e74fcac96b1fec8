import nodemailer, { type Transporter } from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Sends one email; rejects when the server refuses it. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** Delivery through the SMTP server of `SMTP_URL` (nodemailer). */
export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    this.transport = nodemailer.createTransport(smtpUrl);
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail({
      from: this.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html,
      // Both parts travel as base64, so what arrives is exactly what was written, in any language.
      textEncoding: 'base64',
    });
  }

  close(): void {
    this.transport.close();
  }
}

export function createMailer(config: { smtpUrl: string | undefined; mailFrom: string }): Mailer | null {
  return config.smtpUrl ? new SmtpMailer(config.smtpUrl, config.mailFrom) : null;
}

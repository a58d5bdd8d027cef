export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** The port every mail implementation fills: the outbox (embedded default) and SMTP. */
export interface Mailer {
  readonly kind: 'outbox' | 'smtp';
  send(message: MailMessage): Promise<void>;
  close?(): Promise<void>;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** Invoice PDF and XRechnung XML go out as attachments. */
  attachments?: { filename: string; content: Buffer; contentType: string }[];
  /** Holds a one-time code or similar: the communication log keeps the subject only. */
  sensitive?: boolean;
  /** The staff member who wrote it (staff mails from the customer page), for the communication log. */
  sentBy?: string;
}

/** The port every mail implementation fills: the outbox (embedded default) and SMTP. */
export interface Mailer {
  readonly kind: 'outbox' | 'smtp';
  send(message: MailMessage): Promise<void>;
  close?(): Promise<void>;
}

// The shape of an outgoing email, shared by every provider.

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

// Sends through an SMTP relay with nodemailer, from the host/port/username/password settings.
import type SMTPTransport from "nodemailer/lib/smtp-transport";
import type { EmailMessage } from "./message";
import { required, type EmailSettings } from "./settings";
import { isLoopback, parseSmtpHost } from "./smtp-host";
import { emailUnavailable } from "./unavailable";

export async function sendWithSmtp(settings: EmailSettings, message: EmailMessage): Promise<void> {
  const from = required(settings, "from");
  const { host, port } = parseSmtpHost(required(settings, "host"));
  const options: SMTPTransport.Options = {
    host,
    port,
    // 465 is implicit TLS; every other port starts in plain text and upgrades with STARTTLS when offered.
    secure: port === 465,
  };
  // An open relay takes no credentials; sending AUTH with an empty user would be refused.
  if (settings.username !== undefined) options.auth = { user: settings.username, pass: settings.password ?? "" };
  if (isLoopback(host)) options.tls = { rejectUnauthorized: false };

  // Loaded when mail is first sent: a panel that never mails does not hold nodemailer.
  const { default: nodemailer } = await import("nodemailer");
  const transport = nodemailer.createTransport(options);
  try {
    await transport.sendMail({ from, to: message.to, subject: message.subject, text: message.text, html: message.html });
  } catch (cause) {
    throw emailUnavailable("smtp", cause);
  } finally {
    transport.close();
  }
}

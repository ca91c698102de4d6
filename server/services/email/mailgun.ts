// Sends through Mailgun's messages API (form-encoded, basic auth "api:<key>").
import type { EmailMessage } from "./message";
import { required, type EmailSettings } from "./settings";
import { basicAuth, endpoint, postToProvider } from "./http";

export async function sendWithMailgun(baseUrl: string, settings: EmailSettings, message: EmailMessage): Promise<void> {
  const from = required(settings, "from");
  const domain = required(settings, "domain");
  const key = required(settings, "key");
  const form = new URLSearchParams({ from, to: message.to, subject: message.subject, text: message.text });
  if (message.html !== undefined) form.set("html", message.html);
  await postToProvider("mailgun", endpoint(baseUrl, `/v3/${encodeURIComponent(domain)}/messages`), {
    headers: { Authorization: basicAuth("api", key), "Content-Type": "application/x-www-form-urlencoded" },
    body: form.toString(),
  });
}

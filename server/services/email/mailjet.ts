// Sends through Mailjet's v3.1 send API (JSON, basic auth "<API key>:<secret key>").
import type { EmailMessage } from "./message";
import { required, type EmailSettings } from "./settings";
import { basicAuth, endpoint, postToProvider } from "./http";

export async function sendWithMailjet(baseUrl: string, settings: EmailSettings, message: EmailMessage): Promise<void> {
  const from = required(settings, "from");
  // Mailjet pairs a public API key with a secret key; the panel stores them as key and password.
  const apiKey = required(settings, "key");
  const secret = required(settings, "password");
  const body = {
    Messages: [
      {
        From: { Email: from },
        To: [{ Email: message.to }],
        Subject: message.subject,
        TextPart: message.text,
        ...(message.html !== undefined ? { HTMLPart: message.html } : {}),
      },
    ],
  };
  await postToProvider("mailjet", endpoint(baseUrl, "/v3.1/send"), {
    headers: { Authorization: basicAuth(apiKey, secret), "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
}

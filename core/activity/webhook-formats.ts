// What a webhook delivery is written as: Kiln's signed JSON, or a chat service's message.
export const WEBHOOK_FORMATS = ["json", "discord", "slack"] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

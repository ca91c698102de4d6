// The email providers the panel sends through (the setting panel.email.provider): one list for
// the setting's rule (server/services/settings) and the settings screen's choice.
export const EMAIL_PROVIDERS = ["none", "smtp", "mailgun", "mailjet"] as const;
export type EmailProvider = (typeof EMAIL_PROVIDERS)[number];

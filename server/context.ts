// The per-request variables middleware sets and routes read (Hono's typed context).
import type { Locale } from "../core/i18n/locales";
import type { Translate } from "../core/i18n/translate";
import type { SessionUser } from "./services/sessions";

export interface KilnVars {
  user: SessionUser | null;
  /** the raw session token, when the caller sent one that is valid */
  sessionToken: string | null;
  locale: Locale;
  t: Translate;
}

export type KilnEnv = { Variables: KilnVars };

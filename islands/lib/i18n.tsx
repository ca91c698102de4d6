// The translator as React context: the server passes the full table, the browser the island's subset.
import { createContext, useContext, type ReactNode } from "react";
import { makeTranslate, type Translate } from "../../core/i18n/translate";

const I18nContext = createContext<Translate>(makeTranslate({}));

export function I18nProvider({ t, children }: { t: Translate; children: ReactNode }) {
  return <I18nContext.Provider value={t}>{children}</I18nContext.Provider>;
}

export function useT(): Translate {
  return useContext(I18nContext);
}

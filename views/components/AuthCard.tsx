// The centred card the login, register and invite screens share.
import type { ReactNode } from "react";
import { Alert } from "./Alert";

export function AuthCard({ title, subtitle, error, notice, children }: { title: string; subtitle?: string; error?: string; notice?: ReactNode; children: ReactNode }) {
  return (
    <div className="auth-wrap">
      <section className="card auth-card">
        <h1>{title}</h1>
        {subtitle ? <p className="muted">{subtitle}</p> : null}
        {notice}
        {error ? <Alert kind="error">{error}</Alert> : null}
        {children}
      </section>
    </div>
  );
}

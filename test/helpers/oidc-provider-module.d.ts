// oidc-provider ships no types (and @types/oidc-provider is not installed); the part
// test/helpers/oidc-provider.ts uses. Named apart from oidc-provider.ts so TypeScript reads both.
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  export interface Interaction {
    uid: string;
    prompt: { name: string; reasons: string[]; details: Record<string, unknown> };
    params: Record<string, unknown>;
    session?: { accountId?: string };
  }

  export interface InteractionResults {
    login?: { accountId: string; amr?: string[]; acr?: string; remember?: boolean; ts?: number };
    consent?: { grantId?: string };
    error?: string;
    error_description?: string;
  }

  export class Grant {
    constructor(properties: { accountId: string; clientId: string });
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    save(): Promise<string>;
  }

  export class Provider {
    constructor(issuer: string, configuration?: Record<string, unknown>);
    issuer: string;
    proxy: boolean;
    Grant: typeof Grant;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: InteractionResults,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }

  export default Provider;
}

// The package's own in-memory adapter, as a factory over a store of our own (so a provider rebuilt
// by rotateKeys keeps the sessions, grants and codes of the one before it).
declare module "oidc-provider/lib/adapters/memory_adapter.js" {
  export function createMemoryAdapter(clockTolerance?: number): (model: string) => unknown;
}

// A software WebAuthn authenticator (ES256, attestation "none", a resident key), for tests that
// register and use a passkey over the panel's API without a browser: what a hardware key or a
// phone answers, made with node:crypto and the CBOR encoder @simplewebauthn ships.
import { createHash, generateKeyPairSync, randomBytes, sign } from "node:crypto";
import { isoCBOR } from "@simplewebauthn/server/helpers";

const base64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");
const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest();
/** Authenticator data flags: user present and verified, and (at registration) credential data attached. */
const PRESENT_AND_VERIFIED = 0x05;
const WITH_CREDENTIAL = 0x40;

export class SoftAuthenticator {
  private readonly key = generateKeyPairSync("ec", { namedCurve: "P-256" });
  private readonly credentialId: Buffer<ArrayBuffer>;
  private counter = 0;
  private userHandle: string | undefined;

  /** `credentialId`: the id it reports (an attacker's authenticator may claim any, of any length). */
  constructor(options: { credentialId?: Buffer<ArrayBuffer> } = {}) {
    this.credentialId = options.credentialId ?? randomBytes(16);
  }

  /** The id it registers and signs in with, base64url as the panel stores it. */
  get id(): string {
    return base64url(this.credentialId);
  }

  /** A copy holding the same key, id and counter: a cloned authenticator, from then on used apart from the original. */
  clone(): SoftAuthenticator {
    const copy = new SoftAuthenticator({ credentialId: this.credentialId });
    Object.assign(copy, { key: this.key, counter: this.counter, userHandle: this.userHandle });
    return copy;
  }

  /** The browser's answer to registration options, as made at `origin`. */
  register(options: { challenge: string; rp: { id: string }; user: { id: string } }, origin: string) {
    this.userHandle = options.user.id;
    const clientDataJSON = Buffer.from(JSON.stringify({ type: "webauthn.create", challenge: options.challenge, origin, crossOrigin: false }));
    const attestation = new Map<string, unknown>([["fmt", "none"], ["attStmt", new Map()], ["authData", new Uint8Array(this.authenticatorData(options.rp.id, true))]]);
    return {
      id: base64url(this.credentialId),
      rawId: base64url(this.credentialId),
      type: "public-key",
      clientExtensionResults: {},
      response: { clientDataJSON: base64url(clientDataJSON), attestationObject: base64url(isoCBOR.encode(attestation as never)), transports: ["internal"] },
    };
  }

  /** The browser's answer to sign-in options, as made at `origin`. */
  assert(options: { challenge: string; rpId: string }, origin: string) {
    const clientDataJSON = Buffer.from(JSON.stringify({ type: "webauthn.get", challenge: options.challenge, origin, crossOrigin: false }));
    const authenticatorData = this.authenticatorData(options.rpId, false);
    const signature = sign("sha256", Buffer.concat([authenticatorData, sha256(clientDataJSON)]), this.key.privateKey);
    return {
      id: base64url(this.credentialId),
      rawId: base64url(this.credentialId),
      type: "public-key",
      clientExtensionResults: {},
      response: { clientDataJSON: base64url(clientDataJSON), authenticatorData: base64url(authenticatorData), signature: base64url(signature), userHandle: this.userHandle },
    };
  }

  private authenticatorData(rpId: string, withCredential: boolean): Buffer {
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(++this.counter);
    const parts = [sha256(rpId), Buffer.from([PRESENT_AND_VERIFIED | (withCredential ? WITH_CREDENTIAL : 0)]), counter];
    if (withCredential) {
      const jwk = this.key.publicKey.export({ format: "jwk" }) as { x: string; y: string };
      // COSE key: EC2 (1: 2), ES256 (3: -7), P-256 (-1: 1), x (-2), y (-3).
      const cose = new Map<number, unknown>([[1, 2], [3, -7], [-1, 1], [-2, new Uint8Array(Buffer.from(jwk.x, "base64url"))], [-3, new Uint8Array(Buffer.from(jwk.y, "base64url"))]]);
      const length = Buffer.alloc(2);
      length.writeUInt16BE(this.credentialId.length);
      // An all-zero AAGUID: no attestation.
      parts.push(Buffer.alloc(16), length, this.credentialId, Buffer.from(isoCBOR.encode(cose as never)));
    }
    return Buffer.concat(parts);
  }
}

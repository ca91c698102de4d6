// An S3-compatible server for tests: s3rver (from the npm registry) on a free port of `address`, over
// HTTPS with a certificate made for the test and signed by itself. HTTPS because restic's S3
// client signs plain-HTTP uploads as aws-chunked streams, which s3rver stores undecoded; over
// TLS it sends whole payloads, as it does to any real S3 or MinIO.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import S3rver from "s3rver";
import { tempDir } from "./process";

export interface TestS3 {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The server's certificate (its own CA), PEM. */
  caCert: string;
  stop(): Promise<void>;
}

export async function startS3(address = "127.0.0.1"): Promise<TestS3> {
  const dir = tempDir("kiln-s3-");
  const made = Bun.spawnSync(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem"), "-days", "2", "-subj", `/CN=${address}`, "-addext", `subjectAltName=IP:${address}`]);
  if (made.exitCode !== 0) throw new Error(`openssl failed: ${made.stderr}`);
  const server = new S3rver({
    port: 0,
    address,
    silent: true,
    directory: join(dir, "data"),
    configureBuckets: [{ name: "kiln-backups", configs: [] }],
    key: readFileSync(join(dir, "key.pem")),
    cert: readFileSync(join(dir, "cert.pem")),
  });
  const { port } = (await server.run()) as { port: number };
  // s3rver's fixed credentials.
  return { endpoint: `https://${address}:${port}`, bucket: "kiln-backups", accessKeyId: "S3RVER", secretAccessKey: "S3RVER", caCert: readFileSync(join(dir, "cert.pem"), "utf8"), stop: () => server.close() };
}

// Kiln refuses to run on code-hosting cloud development environment domains,
// where a panel would be exposed through someone else's preview URL.
const CLOUD_IDE_SUFFIXES = [
  ".github.dev",
  ".app.github.dev",
  ".preview.app.github.dev",
  ".githubpreview.dev",
  ".gitpod.io",
  ".codeanywhere.com",
  ".codeanyapp.com",
  ".cloudworkstations.dev",
  ".csb.app",
  ".stackblitz.io",
  ".webcontainer.io",
  ".repl.co",
  ".replit.dev",
];

export function isCloudIdeHost(host: string | undefined): boolean {
  if (!host) return false;
  const name = host.toLowerCase().replace(/:\d+$/, "").replace(/\.$/, "");
  return CLOUD_IDE_SUFFIXES.some((suffix) => name.endsWith(suffix));
}

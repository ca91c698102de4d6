// In the compiled binary, build.ts hands over the files it embedded (relative path → $bunfs path).
// When nothing was handed over, Kiln runs from a source checkout and reads the folders directly.
let embedded: Record<string, string> | undefined;

export function useEmbeddedFiles(files: Record<string, string>): void {
  embedded = files;
}

export function embeddedFiles(): Record<string, string> | undefined {
  return embedded;
}

// Real dynamically linked programs for the loader-variable tests, built with the machine's gcc at
// test time (CI installs gcc and libc6-dev): `hello`, linked against libhello.so in ./libs with no
// run path, so it starts only when LD_LIBRARY_PATH points there (else the loader exits 127,
// "cannot open shared object file"), as the eggs' game servers do with ./linux64 or ./libs; and
// libspy.so, which, preloaded, appends "uid=<uid> comm=<program>" to ./loaded.log in the folder
// it runs in, so a test sees every process that loaded it.
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { partAvailable } from "./require-part";

export const hasGcc = () => partAvailable("gcc (Debian's gcc and libc6-dev)", () => Bun.which("gcc") !== null && Bun.spawnSync(["gcc", "--version"]).exitCode === 0);

const HELLO = `#include <stdio.h>
void hello(void);
int main(void) { hello(); return 0; }
`;
const LIBHELLO = `#include <stdio.h>
void hello(void) { printf("hello from ./libs\\n"); fflush(stdout); }
`;
const LIBSPY = `#include <stdio.h>
#include <unistd.h>
__attribute__((constructor)) static void spy(void) {
  char comm[64] = "?";
  FILE *f = fopen("/proc/self/comm", "r");
  if (f) { if (fgets(comm, sizeof comm, f) == NULL) comm[0] = 0; fclose(f); }
  for (char *c = comm; *c; c++) if (*c == '\\n') *c = 0;
  FILE *log = fopen("loaded.log", "a");
  if (log) { fprintf(log, "uid=%d comm=%s\\n", (int)getuid(), comm); fclose(log); }
}
`;

function gcc(args: string[], cwd: string): void {
  const result = Bun.spawnSync(["gcc", ...args], { cwd, stdout: "pipe", stderr: "pipe" });
  if (result.exitCode !== 0) throw new Error(`gcc ${args.join(" ")} failed: ${result.stderr.toString()}`);
}

export interface LoaderBinaryOptions {
  /**
   * "bundled": the program's loader is ./libs/ld-linux-*.so (a path relative to the folder it
   * starts in) and the machine's libc is copied beside libhello.so, so it runs in an image that
   * has no C library at all (the busybox test images), still needing LD_LIBRARY_PATH=./libs.
   */
  loader?: "system" | "bundled";
}

/** Writes hello, libs/libhello.so and libs/libspy.so into `folder` (the server's folder), all readable by any user. */
export function writeLoaderBinaries(folder: string, { loader = "system" }: LoaderBinaryOptions = {}): void {
  const source = mkdtempSync(join(tmpdir(), "kiln-loader-"));
  try {
    const libs = join(folder, "libs");
    mkdirSync(libs, { recursive: true });
    writeFileSync(join(source, "hello.c"), HELLO);
    writeFileSync(join(source, "libhello.c"), LIBHELLO);
    writeFileSync(join(source, "libspy.c"), LIBSPY);
    gcc(["-shared", "-fPIC", "-o", join(libs, "libhello.so"), "libhello.c"], source);
    gcc(["-shared", "-fPIC", "-o", join(libs, "libspy.so"), "libspy.c"], source);
    gcc(["-o", join(folder, "hello"), "hello.c", `-L${libs}`, "-lhello"], source);
    if (loader === "bundled") {
      // The machine's loader and libc, found the way the program itself finds them.
      const ldd = Bun.spawnSync(["ldd", join(folder, "hello")], { stdout: "pipe" }).stdout.toString();
      const interpreter = /^\s*(\/\S*ld-linux\S*)/m.exec(ldd)?.[1];
      const libc = /libc\.so\.6 => (\S+)/.exec(ldd)?.[1];
      if (!interpreter || !libc) throw new Error(`cannot find the loader and libc in: ${ldd}`);
      const name = interpreter.slice(interpreter.lastIndexOf("/") + 1);
      copyFileSync(realpathSync(interpreter), join(libs, name));
      copyFileSync(realpathSync(libc), join(libs, "libc.so.6"));
      gcc(["-o", join(folder, "hello"), "hello.c", `-L${libs}`, "-lhello", `-Wl,--dynamic-linker=./libs/${name}`], source);
    }
    for (const file of ["hello", "libs", ...["libhello.so", "libspy.so", "libc.so.6"].map((f) => join("libs", f))]) {
      try {
        chmodSync(join(folder, file), 0o755);
      } catch {
        // not made for this loader
      }
    }
  } finally {
    rmSync(source, { recursive: true, force: true });
  }
}

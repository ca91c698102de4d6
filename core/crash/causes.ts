// Why a server stopped when nobody asked it to: the table of failures Kiln recognises, one row
// each. A row's patterns are tried against every line the node gathered (./identify); the first
// row, in table order, with a line that matches names the cause, so the specific rows come before
// the broad ones (permission denied is last: many failures print it on the way down).
//
// A pattern is a plain string, which must appear in the line as written, or RE2 syntax (written
// as a RegExp for the editor, compiled by RE2's linear-time engine: no look-around, no
// back-references), so no line a server prints can make matching slow. Its named captures are the
// cause's detail (the Java a jar needs, the port, the mod and what it misses); each capture is
// bounded in length by its pattern, so what reaches the state and the console stays short.
//
// The texts are what the programs themselves print: the JVM, Minecraft (vanilla, Paper), Fabric
// Loader, Forge and NeoForge's FML, the dynamic linker, Node.js (docs/crash-causes.md).

export const CRASH_CAUSE_IDS = [
  "outOfMemory",
  "javaVersion",
  "portInUse",
  "eulaNotAccepted",
  "modWrongLoader",
  "modDependency",
  "corruptFile",
  "missingLibrary",
  "permissionDenied",
] as const;
export type CrashCauseId = (typeof CRASH_CAUSE_IDS)[number];
export type CrashCauseName = CrashCauseId | "unrecognised";

/** Values a row read from its match, for its message. */
export type CrashDetail = Record<string, string | number>;

export interface CrashCause {
  id: CrashCauseId;
  patterns: readonly (RegExp | string)[];
  /** Turns the named captures into the detail (default: them as they are). */
  detail?: (captures: Record<string, string>) => CrashDetail;
}

/** A Java class file's major version and the Java release that writes it (52 is Java 8, 65 Java 21). */
export const javaRelease = (classVersion: number): number => classVersion - 44;

const PATH = "[^ '\"]{1,120}";

export const CRASH_CAUSES: readonly CrashCause[] = [
  {
    id: "outOfMemory",
    patterns: [
      // The JVM's own kinds only: any other text after the colon is the log's, and the kind is
      // said in the node's words (the plain pattern below still names the cause).
      /java\.lang\.OutOfMemoryError: (?<kind>Java heap space|GC overhead limit exceeded|Metaspace|Compressed class space|Direct buffer memory|unable to create (?:new )?native thread|Requested array size exceeds VM limit)/,
      "java.lang.OutOfMemoryError",
      "There is insufficient memory for the Java Runtime Environment to continue",
      "JavaScript heap out of memory",
    ],
  },
  {
    id: "javaVersion",
    patterns: [
      // The JVM: "... (class file version 65.0), this version of the Java Runtime only recognizes class file versions up to 61.0"
      /UnsupportedClassVersionError: .{0,300}class file version (?<needs>[0-9]{2,3})\.[0-9]{1,3}\), this version of the Java Runtime only recognizes class file versions up to (?<runs>[0-9]{2,3})\./,
      /UnsupportedClassVersionError: .{0,300}class file version (?<needs>[0-9]{2,3})\./,
      // Paper's launcher: "Unsupported Java detected (61.0). This version of Minecraft requires at least Java 21."
      /Unsupported Java detected \((?<runs>[0-9]{2,3})\.[0-9]{1,3}\)\. .{0,80}requires at least Java (?<needsJava>[0-9]{1,3})/,
    ],
    detail: ({ needs, runs, needsJava }) => {
      const detail: CrashDetail = {};
      if (needsJava) detail.needs = Number(needsJava);
      else if (needs) detail.needs = javaRelease(Number(needs));
      if (runs) detail.runs = javaRelease(Number(runs));
      return detail;
    },
  },
  {
    id: "portInUse",
    patterns: [
      // Node.js: "Error: listen EADDRINUSE: address already in use :::25565"
      /EADDRINUSE: address already in use [^ ]{0,60}:(?<port>[0-9]{1,5})/,
      // Minecraft: "**** FAILED TO BIND TO PORT!", then the BindException
      "**** FAILED TO BIND TO PORT!",
      "java.net.BindException: Address already in use",
      "EADDRINUSE",
      "Address already in use",
    ],
    detail: ({ port }): CrashDetail => (port ? { port: Number(port) } : {}),
  },
  {
    id: "eulaNotAccepted",
    patterns: ["You need to agree to the EULA in order to run the server", "Failed to load eula.txt"],
  },
  {
    id: "modWrongLoader",
    patterns: [
      // FML's fml.modloading.brokenfile.fabric and friends, and a jar it cannot read as a mod.
      new RegExp(`File (?:mods/)?(?<file>${PATH}) is an? (?<loader>Fabric|Quilt|Forge|NeoForge) mod and cannot be loaded`),
      new RegExp(`File (?:mods/)?(?<file>${PATH}) is not a valid mod file`),
    ],
  },
  {
    id: "modDependency",
    patterns: [
      // Fabric Loader: "Mod 'Sodium' (sodium) 0.5.3 requires any version of fabric-api, which is missing!"
      // The mod is named by its id, not its display name: the name is any text, and the detail is
      // said in the node's own words (a sentence with a link there read as Kiln's).
      /Mod '[^']{1,80}' \((?<mod>[a-z0-9_.-]{1,64})\) [^ ]{1,40} requires [^,]{1,80} of '?(?<dependency>[A-Za-z0-9_.-]{1,64})'?(?: \([^)]{0,80}\))?, which is missing/,
      // FML: "Mod ID: 'jei', Requested by: 'mymod', Expected range: '[15.0,)', Actual version: '[MISSING]'"
      /Mod ID: '(?<dependency>[a-z0-9_.-]{1,64})', Requested by: '(?<mod>[a-z0-9_.-]{1,64})'/,
      "Missing or unsupported mandatory dependencies",
      "Some of your mods are incompatible with the game or each other",
      "Incompatible mods found!",
      "Mod resolution encountered an incompatible mod set",
    ],
  },
  {
    id: "corruptFile",
    patterns: [
      new RegExp(`Error: Invalid or corrupt jarfile (?<file>${PATH})`),
      "java.util.zip.ZipException",
      new RegExp(`Region file (?:\\./)?(?<file>${PATH}) is truncated`),
      /Couldn't load chunk \[-?[0-9]{1,8}, ?-?[0-9]{1,8}\]/,
      /Chunk file at \[-?[0-9]{1,8}, ?-?[0-9]{1,8}\] is in the wrong location/,
      /Exception reading (?:\.\/)?(?<file>[^ ]{0,100}level\.dat)/,
    ],
  },
  {
    id: "missingLibrary",
    patterns: [
      new RegExp(`error while loading shared libraries: (?<library>[^ :]{1,120}): cannot open shared object file`),
      new RegExp(`java\\.lang\\.UnsatisfiedLinkError: (?:no (?<name>[^ ]{1,80}) in java\\.library\\.path|[^ ]{0,200}(?<library>lib[^ /:]{1,80}\\.so[^ :]{0,20}))`),
      "java.lang.UnsatisfiedLinkError",
    ],
    detail: ({ library, name }): CrashDetail => (library ? { library } : name ? { library: name } : {}),
  },
  {
    id: "permissionDenied",
    patterns: [
      new RegExp(`java\\.nio\\.file\\.AccessDeniedException: (?<path>${PATH})`),
      new RegExp(`EACCES: permission denied, [a-z]{1,20} '(?<path>${PATH})'`),
      "Permission denied",
      "EACCES",
    ],
  },
];

/** The message key naming a cause, and its suggested fix. */
export const causeKey = (cause: CrashCauseName) => `daemon.crash.cause.${cause}`;
export const fixKey = (cause: CrashCauseName) => `daemon.crash.fix.${cause}`;

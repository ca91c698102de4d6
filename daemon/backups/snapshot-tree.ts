// One folder of a snapshot read from restic's own tree objects, for names `restic ls --json`
// cannot give: it prints a name as Go's JSON does, each byte that is not UTF-8 as U+FFFD, so
// "old\xE9.dat" and "old\xFF.dat" came out as one name that no file has, and a folder so named
// could not be opened (its name cannot be passed to restic either: arguments are text here). A
// tree object keeps every name as Go's strconv.Quote writes it, without the quotes ("old\\xe9.dat",
// "line\\nbreak.txt", "a\\\\b"; restic's Node.MarshalJSON), so its bytes are exact: the folder is
// found from the snapshot's root by each name's bytes (`restic cat snapshot`, then `restic cat
// blob` for each tree on the way), and its entries are named by their wire form
// (core/files/raw-name).
import { KilnError } from "../../core/errors";
import { bytesFromName, nameFromBytes } from "../../core/files/raw-name";
import type { Restic } from "./restic";

/** An entry of a tree as the folder listing needs it; `name` in wire form. */
export interface TreeNode {
  name: string;
  type: string;
  size: number;
  mtime: string;
  uid: number;
}

/** The largest tree object read: a folder of some 200,000 entries. Past it the folder is not listed this way. */
const MAX_TREE_CHARS = 64 * 1024 * 1024;

interface RawNode {
  name?: unknown;
  type?: unknown;
  size?: unknown;
  mtime?: unknown;
  uid?: unknown;
  subtree?: unknown;
}

/** The entries of `folder` (wire form, "/"-separated, "" for the root) in the snapshot; null when the snapshot holds no such folder. */
export async function treeFolder(restic: Restic, snapshotId: string, folder: string): Promise<TreeNode[] | null> {
  const snapshot = JSON.parse(await restic.run(["cat", "--no-lock", "snapshot", snapshotId])) as { tree?: unknown };
  let tree = snapshot.tree;
  for (const segment of folder === "" ? [] : folder.split("/")) {
    const wanted = Buffer.from(bytesFromName(segment));
    const node = (await nodesOf(restic, tree)).find((n) => n.type === "dir" && typeof n.name === "string" && Buffer.from(quotedBytes(n.name)).equals(wanted));
    if (!node) return null;
    tree = node.subtree;
  }
  return (await nodesOf(restic, tree)).flatMap((n) =>
    typeof n.name === "string" ? [{ name: nameFromBytes(quotedBytes(n.name)), type: String(n.type ?? ""), size: typeof n.size === "number" ? n.size : 0, mtime: String(n.mtime ?? ""), uid: Number(n.uid ?? -1) }] : [],
  );
}

async function nodesOf(restic: Restic, tree: unknown): Promise<RawNode[]> {
  if (typeof tree !== "string" || !/^[0-9a-f]{64}$/.test(tree)) throw new KilnError("ErrBackupFailed", { reason: "the snapshot's tree cannot be read" }, "restic named no tree");
  const text = await restic.run(["cat", "--no-lock", "blob", tree]);
  if (text.length > MAX_TREE_CHARS) throw new KilnError("ErrBackupFailed", { reason: "the folder is too large to list by its names' bytes" }, "a tree object past the listing's bound");
  const nodes = (JSON.parse(text) as { nodes?: unknown }).nodes;
  return Array.isArray(nodes) ? (nodes as RawNode[]) : [];
}

const SIMPLE: Record<string, number> = { a: 7, b: 8, f: 12, n: 10, r: 13, t: 9, v: 11, "\\": 92, '"': 34, "'": 39 };
const encoder = new TextEncoder();

/** The bytes a name stands for, as Go's strconv.Quote wrote it without its quotes; anything it would not write is taken as it is. */
export function quotedBytes(quoted: string): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < quoted.length; ) {
    const char = quoted[i]!;
    if (char !== "\\" || i + 1 >= quoted.length) {
      const code = quoted.codePointAt(i)!;
      const text = String.fromCodePoint(code);
      out.push(...encoder.encode(text));
      i += text.length;
      continue;
    }
    const kind = quoted[i + 1]!;
    const hex = (length: number) => {
      const digits = quoted.slice(i + 2, i + 2 + length);
      return digits.length === length && /^[0-9a-fA-F]+$/.test(digits) ? parseInt(digits, 16) : null;
    };
    if (SIMPLE[kind] !== undefined) {
      out.push(SIMPLE[kind]!);
      i += 2;
    } else if (kind === "x" && hex(2) !== null) {
      out.push(hex(2)!); // one byte, as it was: the way a byte that is not UTF-8 is written
      i += 4;
    } else if ((kind === "u" && hex(4) !== null) || (kind === "U" && hex(8) !== null)) {
      const length = kind === "u" ? 4 : 8;
      const code = hex(length)!;
      out.push(...encoder.encode(code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : "\uFFFD"));
      i += 2 + length;
    } else if (/^[0-7]{3}$/.test(quoted.slice(i + 1, i + 4))) {
      out.push(parseInt(quoted.slice(i + 1, i + 4), 8) & 0xff);
      i += 4;
    } else {
      out.push(92);
      i += 1;
    }
  }
  return Uint8Array.from(out);
}

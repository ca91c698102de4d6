// A file's name as the file manager shows it: a shown label (islands/lib/ShownLabel) whose escapes
// also spell the bytes that are not UTF-8 (core/files/shown-name). Every action still goes by the
// name itself.
import { rawByteEscape } from "../../core/files/shown-name";
import { ShownLabel } from "../lib/ShownLabel";

export function FileName({ name }: { name: string }) {
  return <ShownLabel text={name} extra={rawByteEscape} />;
}

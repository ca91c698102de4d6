// The shipped message files. English, the reference, is imported whole; every other file is
// embedded in the compiled binary as a file and read only when a page in that language is first
// asked for, so a panel whose users read two languages does not hold forty tables in memory.
// A locale name from a request is only ever a key into TRANSLATION_FILES, never part of a path.
import { readFileSync } from "node:fs";
import en from "./en.json";
import arFile from "./ar.json" with { type: "file" };
import bgFile from "./bg.json" with { type: "file" };
import caFile from "./ca.json" with { type: "file" };
import csFile from "./cs.json" with { type: "file" };
import daFile from "./da.json" with { type: "file" };
import deFile from "./de.json" with { type: "file" };
import elFile from "./el.json" with { type: "file" };
import esFile from "./es.json" with { type: "file" };
import etFile from "./et.json" with { type: "file" };
import faFile from "./fa.json" with { type: "file" };
import fiFile from "./fi.json" with { type: "file" };
import frFile from "./fr.json" with { type: "file" };
import heFile from "./he.json" with { type: "file" };
import hiFile from "./hi.json" with { type: "file" };
import hrFile from "./hr.json" with { type: "file" };
import huFile from "./hu.json" with { type: "file" };
import idFile from "./id.json" with { type: "file" };
import itFile from "./it.json" with { type: "file" };
import jaFile from "./ja.json" with { type: "file" };
import koFile from "./ko.json" with { type: "file" };
import ltFile from "./lt.json" with { type: "file" };
import lvFile from "./lv.json" with { type: "file" };
import msFile from "./ms.json" with { type: "file" };
import nlFile from "./nl.json" with { type: "file" };
import noFile from "./no.json" with { type: "file" };
import plFile from "./pl.json" with { type: "file" };
import ptBRFile from "./pt_BR.json" with { type: "file" };
import ptPTFile from "./pt_PT.json" with { type: "file" };
import roFile from "./ro.json" with { type: "file" };
import ruFile from "./ru.json" with { type: "file" };
import skFile from "./sk.json" with { type: "file" };
import slFile from "./sl.json" with { type: "file" };
import srFile from "./sr.json" with { type: "file" };
import svFile from "./sv.json" with { type: "file" };
import thFile from "./th.json" with { type: "file" };
import trFile from "./tr.json" with { type: "file" };
import ukFile from "./uk.json" with { type: "file" };
import viFile from "./vi.json" with { type: "file" };
import zhCNFile from "./zh_CN.json" with { type: "file" };
import zhTWFile from "./zh_TW.json" with { type: "file" };

export type Messages = Record<string, string>;

export const REFERENCE: Messages = en;

/** By language ("de") or by exact locale ("pt_BR"); an exact file wins over its language. */
// (`with { type: "file" }` gives each file's path; TypeScript types the import as the JSON itself.)
export const TRANSLATION_FILES = {
  ar: arFile,
  bg: bgFile,
  ca: caFile,
  cs: csFile,
  da: daFile,
  de: deFile,
  el: elFile,
  es: esFile,
  et: etFile,
  fa: faFile,
  fi: fiFile,
  fr: frFile,
  he: heFile,
  hi: hiFile,
  hr: hrFile,
  hu: huFile,
  id: idFile,
  it: itFile,
  ja: jaFile,
  ko: koFile,
  lt: ltFile,
  lv: lvFile,
  ms: msFile,
  nl: nlFile,
  no: noFile,
  pl: plFile,
  pt_BR: ptBRFile,
  pt_PT: ptPTFile,
  ro: roFile,
  ru: ruFile,
  sk: skFile,
  sl: slFile,
  sr: srFile,
  sv: svFile,
  th: thFile,
  tr: trFile,
  uk: ukFile,
  vi: viFile,
  zh_CN: zhCNFile,
  zh_TW: zhTWFile,
} as unknown as Record<string, string>;

const loaded = new Map<string, Messages>();

/** The messages of one translation file ({} when there is none by that name). */
export function translation(name: string): Messages {
  const file = Object.hasOwn(TRANSLATION_FILES, name) ? TRANSLATION_FILES[name] : undefined;
  if (!file) return {};
  let table = loaded.get(name);
  if (!table) {
    table = JSON.parse(readFileSync(file, "utf8")) as Messages;
    loaded.set(name, table);
  }
  return table;
}

// cookieValue reads a cookie exactly as Hono's parser does, on headers a browser sends and on
// headers made to confuse a reader (repeats, spaces, quotes, escapes, names inside values).
import { expect, test } from "bun:test";
import { parse } from "hono/utils/cookie";
import { cookieValue } from "./cookie-value";

const NAMES = ["kiln", "puffer_auth", "kiln_locale"];

const HEADERS = [
  "kiln=abc",
  " kiln = abc ",
  "kiln=\tabc\t; puffer_auth=def",
  "kiln_locale=de_DE; kiln=abc; kiln_dark=1",
  "kiln_locale=de_DE",
  "kiln=",
  "kiln=; puffer_auth=def",
  "kiln",
  "kiln;kiln=abc",
  "a=kiln; b=c",
  "a=kiln=x",
  "kilnx=1; xkiln=2",
  'kiln="quoted"',
  'kiln="',
  'kiln=""',
  'kiln="a"b"',
  "kiln=a b",
  "kiln=a,b; kiln=second",
  'kiln=a"b; kiln=second',
  "kiln=a\\b; kiln=second",
  "kiln=first; kiln=second",
  "kiln=%41%42",
  "kiln=%E0%A4%A; kiln=x",
  "kiln=%zz",
  "kiln=é; kiln=ascii",
  "puffer_auth=p; kiln_locale=fr_FR; kiln=k",
  "; ; kiln=abc;;",
  "=kiln; kiln=abc",
  "kiln==abc",
  "Kiln=abc",
  "kiln_locale=x; kiln_locale=y",
  " kiln_locale=;kiln_locale=en_US",
];

test("every name of every header reads as Hono's parser reads it", () => {
  for (const header of HEADERS) for (const name of NAMES) expect([header, name, cookieValue(header, name)]).toEqual([header, name, parse(header)[name]]);
});

test("random headers built from the awkward pieces read the same", () => {
  const pieces = ["kiln", "puffer_auth", "kiln_locale", "=", ";", " ", "\t", '"', "%41", "%", "x", ",", "é"];
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % pieces.length;
  for (let i = 0; i < 20_000; i++) {
    let header = "";
    const length = 1 + (i % 12);
    for (let j = 0; j < length; j++) header += pieces[next()];
    for (const name of NAMES) expect([header, name, cookieValue(header, name)]).toEqual([header, name, parse(header)[name]]);
  }
});

test("no header, no value", () => {
  expect(cookieValue(null, "kiln")).toBeUndefined();
  expect(cookieValue("", "kiln")).toBeUndefined();
  expect(cookieValue(undefined, "kiln")).toBeUndefined();
});

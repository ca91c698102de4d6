// The duplicates check's reading of the tool's answer and of the accepted list (scripts/duplicates.ts).
import { describe, expect, test } from "bun:test";
import { judge, parseAccepted, parseAnswer } from "./duplicates";

// Rows as the tool prints them (`duplicates --help`: Returns).
const ANSWER = `5 pairs of places (968 files read), each sharing runs of 6 or more identical or same-shape lines (4 by shape alone, 2 of those marked boilerplate)
D1 server/api-docs/operations.ts:32-50 ~ server/api-docs/operations.ts:77-85 shape (+4 more runs)
D2 test/browser-memory-limit.test.ts:12-20 ~ test/browser-ready-markers.test.ts:12-21
D3 db/migrations/0000_init.sql:31-38 ~ db/migrations/0001_accounts.sql:7-14 shape
D4 islands/definition/GroupList.tsx:30-39 ~ islands/definition/VariableList.tsx:48-58 shape boilerplate
D5 views/pages/NodesPage.tsx:54-65 ~ views/pages/UsersPage.tsx:31-39 shape boilerplate
left out: 5 runs of 6 lines that stand in more than 8 places each (too common to list)`;

describe("the tool's answer", () => {
  test("each row is a pair of files, boilerplate as the tool marks it; other lines are no pair", () => {
    const { pairs, notWhole } = parseAnswer(ANSWER);
    expect(pairs.map((p) => [p.a, p.b, p.boilerplate])).toEqual([
      ["server/api-docs/operations.ts", "server/api-docs/operations.ts", false],
      ["test/browser-memory-limit.test.ts", "test/browser-ready-markers.test.ts", false],
      ["db/migrations/0000_init.sql", "db/migrations/0001_accounts.sql", false],
      ["islands/definition/GroupList.tsx", "islands/definition/VariableList.tsx", true],
      ["views/pages/NodesPage.tsx", "views/pages/UsersPage.tsx", true],
    ]);
    expect(notWhole).toEqual([]);
  });

  test("an answer that is not whole says so: time ran out, or the list was cut", () => {
    const { notWhole } = parseAnswer(`${ANSWER}\n(+12 more pairs)\nincomplete: time: 40 files not paired`);
    expect(notWhole).toEqual(["(+12 more pairs)", "incomplete: time: 40 files not paired"]);
  });
});

describe("the accepted list", () => {
  test("a pair is open unless boilerplate or covered by an entry, either way round; `*` stays within a folder", () => {
    const { entries, errors } = parseAccepted(`# a comment

db/migrations/*.sql ~ db/migrations/*.sql  # applied migrations never change
test/browser-ready-markers.test.ts ~ test/browser-memory-limit.test.ts  # each file starts its own panel
`);
    expect(errors).toEqual([]);
    const { open, unused } = judge(parseAnswer(ANSWER).pairs, entries);
    expect(open.map((p) => p.a)).toEqual(["server/api-docs/operations.ts"]);
    expect(unused).toEqual([]);
    const [deeper] = parseAccepted("db/*.sql ~ db/*.sql  # too wide").entries;
    expect(judge(parseAnswer(ANSWER).pairs, [deeper!]).unused).toEqual([deeper!]);
  });

  test("an entry without a reason, with line numbers, or of another shape is an error, not skipped", () => {
    const { entries, errors } = parseAccepted(`a.ts ~ b.ts
a.ts:10 ~ b.ts:20  # moved lines
a.ts b.ts  # no tilde
a.ts ~ b.ts  # fine`);
    expect(entries.map((e) => e.line)).toEqual([4]);
    expect(errors).toHaveLength(3);
    expect(errors[0]).toStartWith("line 1: ");
    expect(errors[1]).toContain("without line numbers");
  });
});

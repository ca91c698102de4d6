// The console's list of who is online: split only when the pieces are as many as the count.
import { describe, expect, test } from "bun:test";
import { onlineList } from "./online-list";
import { LIST_COMMAND } from "./player-lists";

const parse = (line: string) => {
  const match = line.match(LIST_COMMAND.done)!;
  return onlineList(Number(match[1]), Number(match[2]), match[3] ?? "");
};
const names = (line: string) => parse(line).players.map((player) => player.name);

describe("the console's list", () => {
  test("every name as the game wrote it, Floodgate's and offline-mode ones included", () => {
    expect(names("There are 5 of a max of 20 players online: Steve, .Bedrock_Guy, *Steve, ab, x,Admin")).toEqual(["Steve", ".Bedrock_Guy", "*Steve", "ab", "x,Admin"]);
    expect(names("There are 1 of a max of 20 players online: Steve\u200B")).toEqual(["Steve\u200B"]);
    expect(parse("There are 0 of a max of 20 players online: ")).toEqual({ online: 0, max: 20, players: [] });
  });

  test("a name with ', ' in it is never two entries: the line is kept whole", () => {
    expect(parse("There are 2 of a max of 20 players online: Steve, x, Admin")).toEqual({ online: 2, max: 20, players: [], unsplit: "Steve, x, Admin" });
    expect(parse("There are 1 of a max of 20 players online: Bedrock Guy, Admin")).toEqual({ online: 1, max: 20, players: [], unsplit: "Bedrock Guy, Admin" });
  });

  test("more names than the tab shows: the count stays the game's", () => {
    const many = Array.from({ length: 250 }, (_, i) => `p${i}`);
    const list = parse(`There are 250 of a max of 300 players online: ${many.join(", ")}`);
    expect(list.online).toBe(250);
    expect(list.players).toHaveLength(200);
  });
});

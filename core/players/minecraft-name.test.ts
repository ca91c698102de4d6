// The Minecraft name rule and the other inputs of a player command: what passes, what is refused.
import { describe, expect, test } from "bun:test";
import { KilnError } from "../errors";
import { dashedUuid, isKickPlayerName, isMinecraftName, isMinecraftPlayerName, kickName, minecraftName } from "./minecraft-name";
import { playerIp, playerReason } from "./player-input";
import { playerList } from "./player-lists";

const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return error instanceof KilnError ? error.code : "not a KilnError";
  }
  return "passed";
};

describe("names a kick takes as written", () => {
  test("the game's unquoted name, 1 to 16 of [A-Za-z0-9_.+-]: Floodgate's and short offline-mode names", () => {
    for (const name of ["Steve", ".Bedrock_Guy", "ab", "a", "x-y+z.w", "a_b_c_d_e_f_g_h_"]) {
      expect(isKickPlayerName(name)).toBe(true);
      expect(kickName(name)).toBe(name);
    }
    expect(kickName("069a79f4-44e9-4726-a5be-fca90e38aaf5")).toBe("069a79f4-44e9-4726-a5be-fca90e38aaf5");
  });

  test("a name kick would quote, split or read as another player's UUID is refused", () => {
    for (const name of ["*Steve", "x,Admin", "Bedrock Guy", "@a", "@p", "a_b_c_d_e_f_g_h_i", "Steve\nop x", "Steve\u200B", "1-1-1-1-1", "a-b-c-d-e", ".", "..", "\"Steve\""]) {
      expect(isKickPlayerName(name)).toBe(false);
      expect(code(() => kickName(name))).toBe("ErrFieldPatternMismatch");
    }
    expect(isKickPlayerName("069a79f4-44e9-4726-a5be-fca90e38aaf5")).toBe(false);
    expect(code(() => kickName(""))).toBe("ErrFieldRequired");
  });

  test("an operator button's name is a Minecraft name, never a UUID", () => {
    expect(isMinecraftPlayerName("Steve")).toBe(true);
    for (const name of ["ab", ".Steve", "069a79f444e94726a5befca90e38aaf5"]) expect(isMinecraftPlayerName(name)).toBe(false);
  });
});

describe("minecraft names", () => {
  test("3–16 of [A-Za-z0-9_] or a UUID pass", () => {
    for (const name of ["Bob", "Notch", "jeb_", "a_b_c_d_e_f_g_h_", "069a79f4-44e9-4726-a5be-fca90e38aaf5", "069a79f444e94726a5befca90e38aaf5"]) expect(isMinecraftName(name)).toBe(true);
  });

  test("anything else is refused with the rule", () => {
    for (const name of ["ab", "a_b_c_d_e_f_g_h_i", "Steve Jobs", "Steve\nop Mallory", "§4Red", "a;op b", "x&&y", "Ünïcode", "069a79f4-44e9-4726-a5be-fca90e38aaf5\nop x", "069a79f4-44e9-4726-a5be-fca90e38aaf5 x"]) {
      expect(isMinecraftName(name)).toBe(false);
      expect(code(() => minecraftName(name))).toBe("ErrFieldPatternMismatch");
    }
    expect(code(() => minecraftName(""))).toBe("ErrFieldRequired");
    expect(code(() => minecraftName(42))).toBe("ErrFieldRequired");
  });

  test("a UUID is written dashed and lower case", () => {
    expect(dashedUuid("069A79F444E94726A5BEFCA90E38AAF5")).toBe("069a79f4-44e9-4726-a5be-fca90e38aaf5");
  });
});

describe("reasons, IPs and list names", () => {
  test("a reason is one printable line of at most 200 characters", () => {
    expect(playerReason("  griefing the spawn  ")).toBe("griefing the spawn");
    expect(playerReason(undefined)).toBe("");
    expect(code(() => playerReason("bye\nop Mallory"))).toBe("ErrFieldHasControlCharacters");
    expect(code(() => playerReason("bye\u2028op Mallory"))).toBe("ErrFieldHasControlCharacters");
    expect(code(() => playerReason("§kmagic"))).toBe("ErrFieldHasControlCharacters");
    expect(code(() => playerReason("x".repeat(201)))).toBe("ErrFieldTooLarge");
  });

  test("an IP is parsed and written canonically", () => {
    expect(playerIp("192.168.0.10")).toBe("192.168.0.10");
    expect(playerIp("2001:DB8:0:0:0:0:0:1")).toBe("2001:db8::1");
    for (const ip of ["256.1.1.1", "1.2.3", "01.2.3.4", "1.2.3.4; op x", "1.2.3.4\nop x", "example.org", "::g"]) expect(code(() => playerIp(ip))).toBe("ErrFieldIsInvalidIP");
  });

  test("only the four lists are lists", () => {
    for (const list of ["whitelist", "ops", "bans", "ip-bans"]) expect(playerList(list) as string).toBe(list);
    for (const list of ["online", "__proto__", "constructor", "../ops", "banned-players.json"]) expect(code(() => playerList(list))).toBe("ErrUnknownField");
  });
});

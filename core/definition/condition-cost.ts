// What evaluating a condition can cost, bounded from the expression before it runs
// (./conditions): cel-js has no budget of its own. Every value gets a size bound and every node a
// work estimate; a comprehension (all, exists, exists_one, map, filter) multiplies its body's work
// by its range's size, and map results, `+`, cel.bind, split and join carry sizes forward, so
// nesting and chaining both multiply. Over MAX_CONDITION_COST the condition is refused unevaluated.

/**
 * The most work one evaluation may take, in the units of conditionCost (about one node evaluated,
 * or one character or element read; some 20 a microsecond): about 10 ms at worst. A template's
 * conditions cost some thousands, one comprehension over a hundred elements some tens of thousands.
 */
export const MAX_CONDITION_COST = 250_000;
/** What a call weighs beyond the values it reads (some microseconds). */
const CALL_COST = 100;
/** file_exists and in_path: a lookup through the jail, or one per PATH entry. */
const LOOKUP_COST = 1000;
/** A timestamp's getter given a time zone: some hundreds of microseconds. */
const TIME_ZONE_COST = 10_000;

/** What conditionCost throws for an expression it has no bound for; costProblem says it as the reason. */
class Unbounded extends Error {}

/**
 * Bounds of one expression: how large its value can be (characters of a text or bytes, elements
 * and entries of a list or map with their own sizes, 1 for anything else), how many elements a
 * comprehension over it can take and how large each can be, and the work of evaluating it.
 */
interface Bound {
  size: number;
  count: number;
  item: number;
  cost: number;
}
type CelNode = { op: string; args: unknown };
/** The bounds of the names an expression may read: a variable, or a comprehension's or cel.bind's own. */
type Scope = (name: string) => Bound;

/** The comprehension macros (cel-js expands them into loops over the receiver). */
const COMPREHENSIONS = new Set(["all", "exists", "exists_one", "map", "filter"]);
/** Functions whose value is a number, a boolean, a type, a timestamp or a duration. */
const SCALAR_RESULTS = new Set(["size", "int", "uint", "double", "bool", "type", "startsWith", "endsWith", "contains", "indexOf", "lastIndexOf", "at", "timestamp", "duration", "file_exists", "in_path", "getDate", "getDayOfMonth", "getDayOfWeek", "getDayOfYear", "getFullYear", "getHours", "getMilliseconds", "getMinutes", "getMonth", "getSeconds"]);
/** Functions whose value is at most what they read (a part of a text, a copy, parsed JSON), or a number written out. */
const READ_SIZE_RESULTS = new Set(["trim", "substring", "string", "dyn", "json"]);

/**
 * Why the expression would cost too much to evaluate, or undefined: an upper bound of its work
 * (conditionCost) over MAX_CONDITION_COST, or a function whose cost has no bound. `sizeOf` gives
 * the size of a variable's value (conditionCost's units).
 */
export function costProblem(ast: unknown, sizeOf: (name: string) => number): string | undefined {
  let cost: number;
  try {
    cost = conditionCost(ast as CelNode, (name) => leaf(sizeOf(name))).cost;
  } catch (error) {
    if (error instanceof Unbounded) return error.message;
    throw error;
  }
  if (cost <= MAX_CONDITION_COST) return undefined;
  // Past 10^12 the bound may have overflowed to Infinity, or to NaN (an empty range times it).
  const about = cost <= 1e12 ? String(Math.ceil(cost)) : "more than 10^12";
  return `it could cost too much (about ${about} steps, at most ${MAX_CONDITION_COST}): use fewer nested or chained all, exists, map, filter or cel.bind, and smaller lists or values`;
}

/**
 * An upper bound of the size of `node`'s value and of the work of evaluating it, from the
 * expression alone. Every node costs 1 and a function call CALL_COST (LOOKUP_COST for the node's
 * file and PATH lookups); an operation that reads values (+, ==, in, a call) costs their sizes
 * too; a comprehension costs its body once per element, and its result's size is multiplied
 * likewise; cel.bind gives its name its value's size. So nesting and chaining multiply, as they do
 * when evaluated. matches() is refused: cel-js runs it with JavaScript's backtracking engine, where
 * a pattern such as ^(a|a)*$ takes exponential time (cel-go's RE2 does not).
 */
function conditionCost(node: CelNode, scope: Scope): Bound {
  const { op, args } = node;
  const of = (child: unknown, inner: Scope = scope) => conditionCost(child as CelNode, inner);
  switch (op) {
    case "value": {
      const bound = leaf(weightOf(args));
      return { ...bound, cost: 1 };
    }
    case "id":
      return { ...scope(args as string), cost: 1 };
    case "list":
    case "map": {
      const parts = (op === "map" ? (args as unknown[][]).map(([key, value]) => [of(key), of(value)] as const) : (args as unknown[]).map((element) => [of(element)] as const));
      const all = parts.flat();
      // A map's comprehension takes its keys.
      const items = parts.map((part) => part[0].size);
      return { size: sum(all.map((b) => b.size)) + parts.length, count: parts.length, item: Math.max(1, ...items), cost: sum(all.map((b) => b.cost)) + parts.length + 1 };
    }
    case ".":
    case ".?": {
      const object = of((args as unknown[])[0]);
      return { ...leaf(object.size), cost: object.cost + 1 };
    }
    case "[]":
    case "[?]": {
      const [object, index] = (args as unknown[]).map((child) => of(child)) as [Bound, Bound];
      return { ...leaf(object.size), cost: object.cost + index.cost + index.size + 1 };
    }
    case "!_":
    case "-_":
      return { ...leaf(1), cost: of(args).cost + 1 };
    case "?:": {
      const [test, yes, no] = (args as unknown[]).map((child) => of(child)) as [Bound, Bound, Bound];
      return { size: Math.max(yes.size, no.size), count: Math.max(yes.count, no.count), item: Math.max(yes.item, no.item), cost: test.cost + Math.max(yes.cost, no.cost) + 1 };
    }
    case "+": {
      // Texts, bytes and lists are copied whole.
      const [left, right] = (args as unknown[]).map((child) => of(child)) as [Bound, Bound];
      return { size: left.size + right.size, count: left.count + right.count, item: Math.max(left.item, right.item), cost: left.cost + right.cost + left.size + right.size };
    }
    case "in": {
      // Each element is compared with the value.
      const [value, within] = (args as unknown[]).map((child) => of(child)) as [Bound, Bound];
      return { ...leaf(1), cost: value.cost + within.cost + value.size + within.size + within.count };
    }
    case "==":
    case "!=":
    case "<":
    case "<=":
    case ">":
    case ">=": {
      // A comparison stops at the shorter value's end (a text built by + was counted whole when built).
      const [left, right] = (args as unknown[]).map((child) => of(child)) as [Bound, Bound];
      return { ...leaf(1), cost: left.cost + right.cost + Math.min(left.size, right.size) + 1 };
    }
    case "&&":
    case "||":
    case "-":
    case "*":
    case "/":
    case "%": {
      // Booleans, numbers, timestamps and durations.
      const [left, right] = (args as unknown[]).map((child) => of(child)) as [Bound, Bound];
      return { ...leaf(1), cost: left.cost + right.cost + 1 };
    }
    case "call": {
      const [name, callArgs] = args as [string, unknown[]];
      return callCost(name, undefined, callArgs, scope);
    }
    case "rcall": {
      const [name, receiver, callArgs] = args as [string, CelNode, CelNode[]];
      const variable = callArgs[0]?.op === "id" ? (callArgs[0].args as string) : undefined;
      if (COMPREHENSIONS.has(name) && variable !== undefined && (callArgs.length === 2 || (name === "map" && callArgs.length === 3))) {
        const range = of(receiver);
        const element = leaf(range.item);
        const inner: Scope = (n) => (n === variable ? element : scope(n));
        const body = callArgs.slice(1).map((child) => of(child, inner));
        const each = sum(body.map((b) => b.cost)) + 2;
        const cost = range.cost + range.count * each;
        if (name === "map") {
          const value = body.at(-1)!;
          return { size: range.count * (value.size + 1), count: range.count, item: value.size, cost };
        }
        if (name === "filter") return { ...range, cost };
        return { ...leaf(1), cost };
      }
      if (name === "bind" && receiver.op === "id" && receiver.args === "cel" && variable !== undefined && callArgs.length === 3) {
        const value = of(callArgs[1]);
        const bound: Bound = { ...value, cost: 1 };
        const result = of(callArgs[2], (n) => (n === variable ? bound : scope(n)));
        return { ...result, cost: value.cost + result.cost + 1 };
      }
      return callCost(name, receiver, callArgs, scope);
    }
    default:
      throw new Unbounded(`${op} is not supported in a condition`);
  }
}

/** A function or method call: its arguments, its own cost and the size of what it gives. */
function callCost(name: string, receiver: CelNode | undefined, callArgs: unknown[], scope: Scope): Bound {
  if (name === "matches") throw new Unbounded("matches() is not supported in a condition (its regular expression would run on a backtracking engine)");
  const self = receiver && conditionCost(receiver, scope);
  const given = callArgs.map((child) => conditionCost(child as CelNode, scope));
  const inputs = self ? [self, ...given] : given;
  const evaluated = sum(inputs.map((b) => b.cost));
  if (name === "has") return { ...leaf(1), cost: evaluated + 1 };
  const read = sum(inputs.map((b) => b.size));
  const cost = evaluated + read + ownCost(name, given.length);
  if (SCALAR_RESULTS.has(name)) return { ...leaf(1), cost };
  if (READ_SIZE_RESULTS.has(name)) return { ...leaf(read + 32), cost };
  if (name === "split" && self) return { size: 2 * self.size + 2, count: self.size + 1, item: self.size, cost: cost + 2 * self.size };
  if (name === "join" && self) {
    // The separator stands between every two elements.
    const size = self.size + self.count * (given[0]?.size ?? 0);
    return { ...leaf(size), cost: cost + size };
  }
  // bytes(text) (UTF-8: up to 3 bytes a character), hex, base64, lowerAscii and upperAscii (a
  // character may become three): at most a few times what they read.
  return { ...leaf(3 * read + 32), cost: cost + 3 * read + 32 };
}

/** What a call weighs itself: a time zone's getter (getHours('Europe/Paris')) builds a date formatter each time. */
function ownCost(name: string, argumentCount: number): number {
  if (name === "file_exists" || name === "in_path") return LOOKUP_COST;
  return name.startsWith("get") && argumentCount === 1 ? TIME_ZONE_COST : CALL_COST;
}

/** A value of `size` taken as a whole: a text's characters can also be its elements (split). */
function leaf(size: number): Bound {
  return { size, count: size, item: size, cost: 0 };
}

/** The size of a value as conditionCost counts it: a text's or bytes' length, a list's or map's elements with theirs, else 1. */
export function weightOf(value: unknown): number {
  if (typeof value === "string") return Math.max(1, value.length);
  if (value instanceof Uint8Array) return Math.max(1, value.length);
  if (Array.isArray(value)) return value.length + sum(value.map(weightOf));
  if (value instanceof Map) return value.size + sum([...value].map(([k, v]) => weightOf(k) + weightOf(v)));
  if (value && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) return sum(Object.entries(value).map(([k, v]) => 1 + weightOf(k) + weightOf(v)));
  return 1;
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

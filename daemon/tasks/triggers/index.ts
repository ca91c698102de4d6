// Task triggers on the node: what starts a task besides its schedule (docs/tasks.md "Triggers").
export { TriggerWatch, SAMPLE_MS, type FiredTrigger } from "./watch";
export { ConsoleLines, visibleLine, LINES_PER_SECOND } from "./console-lines";
export { commandValue, lineMatcher, plainValue, type TriggerValues } from "./line-match";
export { playersChange, type PlayersChange } from "./players-change";
export { serverIs, unmetCondition, withinWindow } from "./conditions";

export * from "./settings";
export * from "./targets";
export * from "./snapshots";
export * from "./recovery";

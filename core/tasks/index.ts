export * from "./constants";
export * from "./schema";

export * from "./events";
export * from "./patterns";
export * from "./webhook-formats";

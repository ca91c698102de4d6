export * from "./steps";
export * from "./environment";
export * from "./template";
export { substitute, substituteDeep, type Values } from "./substitute";
export { splitCommandLine } from "./command-line";

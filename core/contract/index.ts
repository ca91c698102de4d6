// The panel–node contract: node operations, power actions and socket rules, each written once.
export * from "./power-actions";
export * from "./node-operations";
export * from "./socket-rules";
export * from "./panel-calls";

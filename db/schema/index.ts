export * from "./users";
export * from "./sessions";
export * from "./settings";
export * from "./oauth2";
export * from "./passkeys";
export * from "./nodes";
export * from "./servers";
export * from "./templates";

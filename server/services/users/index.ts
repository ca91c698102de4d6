export { createUser, type NewUser } from "./create-user";
export { countUsers, scopesOf } from "./queries";
export { ensureFirstAdmin, type FirstAdminResult } from "./first-admin";
export { getUserSetting, setUserSetting, listUserSettings } from "./user-settings";

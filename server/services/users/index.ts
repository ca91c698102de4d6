export { createUser, assertUnique, type NewUser } from "./create-user";
export { hashPassword } from "../auth/credentials";
export { countUsers, ownScopesOf, scopesOf } from "./queries";
export { ensureFirstAdmin, firstAdminNotice, firstAdminLoggedIn, type FirstAdminResult, type FirstAdminNotice } from "./first-admin";
export { getUserSetting, setUserSetting, listUserSettings } from "./user-settings";
export { getUser, listUsers, updateUser, deleteUser, setScopes, mayManage, type Actor, type UserView } from "./manage";
export { updateSelf } from "./update-self";
export { inviteUser, withdrawInvite, findInvite, acceptInvite, INVITE_TTL_MS } from "./invite";

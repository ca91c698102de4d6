// Shell runtime for every page with the frame: hotkeys, markup enhancements, session renewal.
// What only some pages have loads only where it is, so a page with no island stays within its few
// KB: the permission presets (a server's Users tab), copy buttons (secrets, the SFTP card, a node's
// install steps), background-submit buttons (the settings form's test email, with its toasts) and
// the template import dialog's search and late repositories.
import { installHotkeys } from "./shell/hotkeys";
import { enhance } from "./shell/enhance";
import { renewSessions } from "./shell/session-renewal";

installHotkeys();
enhance();
if (document.querySelector("button[data-preset]")) void import("./shell/presets").then((m) => m.installPresets());
if (document.querySelector("button[data-copy]")) void import("./shell/copy-buttons").then((m) => m.installCopyButtons());
if (document.querySelector("button[data-fetch-submit]")) void import("./shell/fetch-submit").then((m) => m.installFetchSubmit());
if (document.querySelector("[data-import-dialog]")) void import("./shell/template-import").then((m) => m.installTemplateImport());
renewSessions();

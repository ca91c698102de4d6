// Shell runtime for every page with the frame: hotkeys, markup enhancements, session renewal.
import { installHotkeys } from "./shell/hotkeys";
import { enhance } from "./shell/enhance";
import { renewSessions } from "./shell/session-renewal";
import { installPresets } from "./shell/presets";
import { installCopyButtons } from "./shell/copy-buttons";

installHotkeys();
enhance();
installPresets();
installCopyButtons();
// Few pages have a background-submit button (the settings form's test email): its code and the
// toasts it shows load only where one is.
if (document.querySelector("button[data-fetch-submit]")) void import("./shell/fetch-submit").then((m) => m.installFetchSubmit());
renewSessions();

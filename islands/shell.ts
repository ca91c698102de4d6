// Shell runtime for every page with the frame: hotkeys, markup enhancements, session renewal.
import { installHotkeys } from "./shell/hotkeys";
import { enhance } from "./shell/enhance";
import { renewSessions } from "./shell/session-renewal";
import { installPresets } from "./shell/presets";
import { installFetchSubmit } from "./shell/fetch-submit";

installHotkeys();
enhance();
installPresets();
installFetchSubmit();
renewSessions();

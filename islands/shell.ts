// Shell runtime for every page with the logged-in frame: hotkeys and markup enhancements.
import { installHotkeys } from "./shell/hotkeys";
import { enhance } from "./shell/enhance";

installHotkeys();
enhance();

// What the composition root hands to routes and middleware.
import type { Db } from "../db";
import type { KilnConfig } from "./config";
import type { AssetStore } from "./assets";
import type { Themes } from "./themes";
import type { LoginThrottle } from "./services/auth/throttle";
import type { ChallengeStore } from "./services/passkeys/challenges";

export interface Deps {
  config: KilnConfig;
  db: Db;
  assets: AssetStore;
  themes: Themes;
  throttle: LoginThrottle;
  challenges: ChallengeStore;
}

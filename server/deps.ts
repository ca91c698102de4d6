// What the composition root hands to routes and middleware.
import type { Db } from "../db";
import type { KilnConfig } from "./config";
import type { AssetStore } from "./assets";
import type { Themes } from "./themes";

export interface Deps {
  config: KilnConfig;
  db: Db;
  assets: AssetStore;
  themes: Themes;
}

// Island name → lazy import. Each island becomes its own chunk, fetched only when a page has it.
import type { IslandDef } from "./define";

type Loader = () => Promise<{ default: IslandDef<any> }>;

export const ISLANDS: Record<string, Loader> = {
  ThemeMenu: () => import("./ThemeMenu"),
  PasskeyLogin: () => import("./PasskeyLogin"),
  AddPasskey: () => import("./AddPasskey"),
  DefinitionEditor: () => import("./DefinitionEditor"),
  ServerStatus: () => import("./ServerStatus"),
  BackupProgress: () => import("./BackupProgress"),
  TransferProgress: () => import("./TransferProgress"),
  ServerControls: () => import("./ServerControls"),
  ServerConsole: () => import("./ServerConsole"),
  ServerStats: () => import("./ServerStats"),
  ServerVitals: () => import("./ServerVitals"),
  CrashCause: () => import("./CrashCause"),
  ServerListLive: () => import("./ServerListLive"),
  FileManager: () => import("./FileManager"),
  TaskSteps: () => import("./TaskSteps"),
  TaskSchedule: () => import("./TaskSchedule"),
  TaskTriggers: () => import("./TaskTriggers"),
  TemplateEditor: () => import("./TemplateEditor"),
  VariableGroups: () => import("./VariableGroups"),
  ModsTab: () => import("./ModsTab"),
};

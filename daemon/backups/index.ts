export { BackupService } from "./service";
export { BackupTargets } from "./targets";
export { findRestic, MIN_RESTIC_VERSION, RESTIC_INSTALL_VERSION } from "./restic-binary";
export { recoverRestores } from "./restore-swap";

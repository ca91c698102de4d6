// The file manager's overlays, a chunk of their own: none is on screen when the page loads, so
// they load when the user reaches for the file manager (or opens one), not with the page.
export { NameDialog } from "./NameDialog";
export { UploadDialog } from "./UploadDialog";
export { DeleteDialog } from "./DeleteDialog";
export { DestinationDialog } from "./DestinationDialog";
export { ModeDialog } from "./ModeDialog";
export { ExtractDialog } from "./ExtractDialog";
export { ArchiveMenu } from "./ArchiveMenu";
export { ImageViewer } from "./ImageViewer";
export { EditorOverlay } from "./EditorOverlay";

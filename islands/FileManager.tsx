// The file manager (spec sections 2, 4 and 5): breadcrumb and folder listing, create file (n f)
// and folder (n d), refresh (r), upload (u) one file at a time with a progress bar, drag and drop,
// archive the folder, and per item edit/view, extract, download, archive and delete. The server
// renders the folder asked for in the address (?path=), so browsing and downloading work before
// any script; once hydrated, listings come over HTTP from the daemon's file API through the proxy
// (the socket's file messages would add nothing a plain GET does not give).
import { Suspense, lazy, useEffect, useRef, useState, type DragEvent } from "react";
import { archiveName, baseName, editRefusal, isImage, joinPath, MAX_EDITABLE_SIZE, normalizePath, type FileEntry, type FolderListing } from "../core/files";
import { formatBytes } from "../core/units";
import { defineIsland } from "./define";
import { useT } from "./lib/i18n";
import { Icon } from "./lib/Icon";
import { restart as refreshIcon } from "./lib/icons";
import { archive as archiveIcon, fileAdd, folderAdd, upload as uploadIcon } from "./files/icons";
import { reportError } from "./shell/report-error";
import { showToast } from "./shell/toasts";
import { Breadcrumb } from "./files/Breadcrumb";
import { FileList } from "./files/FileList";
import { ProgressBar, type UploadProgress } from "./files/ProgressBar";
import { carriesFiles, readDrop } from "./files/drop";
import { createArchive, createFolder, deleteEntry, extractArchive, fileUrl, listFolder, uploadFile, writeFile, type Upload } from "./files/file-api";
import { filesPageUrl, pathFromSearch, sortEntries } from "./files/listing";

/** The overlays' chunk: fetched when the pointer or focus first comes to the file manager. */
const loadDialogs = () => import("./files/dialogs");
const NameDialog = lazy(() => loadDialogs().then((m) => ({ default: m.NameDialog })));
const UploadDialog = lazy(() => loadDialogs().then((m) => ({ default: m.UploadDialog })));
const DeleteDialog = lazy(() => loadDialogs().then((m) => ({ default: m.DeleteDialog })));
const ImageViewer = lazy(() => loadDialogs().then((m) => ({ default: m.ImageViewer })));
const EditorOverlay = lazy(() => loadDialogs().then((m) => ({ default: m.EditorOverlay })));

export interface FileManagerProps {
  serverId: string;
  /** putServerFiles (or admin): create, upload, edit, archive, extract, delete */
  canEdit: boolean;
  /** the folder the page was asked for */
  path: string;
  /** its listing as the server got it; null when it could not (the browser then asks) */
  listing: FolderListing | null;
}

type Dialog =
  | { kind: "new"; folder: boolean }
  | { kind: "upload" }
  | { kind: "delete"; entry: FileEntry }
  | { kind: "edit"; path: string; name: string }
  | { kind: "image"; path: string; name: string };

type History = "push" | "replace" | "none";

function FileManagerView({ serverId, canEdit, path: askedPath, listing }: FileManagerProps) {
  const t = useT();
  const [path, setPath] = useState(normalizePath(listing?.path ?? askedPath));
  const [files, setFiles] = useState<FileEntry[]>(() => sortEntries(listing?.files ?? []));
  const [loading, setLoading] = useState(listing === null);
  const [working, setWorking] = useState(false);
  const [hydrated, setHydrated] = useState(false);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [dragging, setDragging] = useState(false);
  const request = useRef(0);
  const pathRef = useRef(path);
  const dragDepth = useRef(0);
  const upload = useRef<Upload | null>(null);

  const folderLabel = path === "" ? t("files.root") : `/${path}`;
  const taken = new Set(files.map((f) => f.name));

  /** Lists `target`; a later call wins over an earlier one still on its way. */
  async function load(target: string, history: History = "none"): Promise<void> {
    const id = ++request.current;
    setLoading(true);
    try {
      const answer = await listFolder(serverId, normalizePath(target));
      if (id !== request.current) return;
      const shown = normalizePath(answer.path);
      setFiles(sortEntries(answer.files));
      setPath(shown);
      pathRef.current = shown;
      if (history !== "none") {
        const url = filesPageUrl(serverId, shown);
        if (history === "push" && url !== location.pathname + location.search) window.history.pushState({ filesPath: shown }, "", url);
        else window.history.replaceState({ filesPath: shown }, "", url);
      }
    } catch (error) {
      // Spec section 4: a listing that fails clears loading (and says why).
      if (id === request.current) await reportError(error);
    } finally {
      if (id === request.current) setLoading(false);
    }
  }

  useEffect(() => {
    setHydrated(true);
    if (listing === null) void load(askedPath);
    const onPop = () => {
      if (new URLSearchParams(location.search).get("tab") === "files") void load(pathFromSearch(location.search));
    };
    window.addEventListener("popstate", onPop);
    return () => {
      window.removeEventListener("popstate", onPop);
      upload.current?.abort();
    };
  }, []);

  /** Runs a change, reports a failure, and lists the folder again either way. */
  async function change(work: () => Promise<string | void>): Promise<boolean> {
    setWorking(true);
    try {
      const message = await work();
      if (message) showToast(message);
      return true;
    } catch (error) {
      await reportError(error);
      return false;
    } finally {
      setWorking(false);
      void load(pathRef.current);
    }
  }

  function openFile(entry: FileEntry): void {
    const full = joinPath(path, entry.name);
    if (isImage(entry.name)) return setDialog({ kind: "image", path: full, name: entry.name });
    // Refused before anything is fetched (spec section 5).
    const refusal = editRefusal(entry.name, entry.size);
    if (refusal === "archive") return void showToast(t("files.archiveNoEdit", { name: entry.name }), { error: true });
    if (refusal === "tooLarge") return void showToast(t("files.tooLarge", { name: entry.name, max: formatBytes(MAX_EDITABLE_SIZE, "binary") }), { error: true });
    setDialog({ kind: "edit", path: full, name: entry.name });
  }

  async function create(name: string, folder: boolean): Promise<void> {
    const full = joinPath(path, name);
    const ok = await change(async () => {
      if (folder) await createFolder(serverId, full);
      else await writeFile(serverId, full, "");
      return t("files.created", { name });
    });
    if (!ok) return;
    // A new file is opened straight away: it was made to be written in.
    setDialog(folder ? null : { kind: "edit", path: full, name });
  }

  function archiveEntries(folderName: string, paths: string[]): void {
    const destination = joinPath(path, archiveName(folderName, taken));
    void change(async () => t("files.archived", { name: baseName(await createArchive(serverId, destination, paths)) }));
  }

  async function uploadAll(list: File[]): Promise<void> {
    if (upload.current || list.length === 0) return;
    const folder = pathRef.current;
    let failed = 0;
    for (const [i, file] of list.entries()) {
      setProgress({ name: file.name, current: i + 1, total: list.length, loaded: 0, size: file.size });
      const one = uploadFile(serverId, joinPath(folder, file.name), file, (loaded, total) => setProgress((p) => p && { ...p, loaded, size: total }));
      upload.current = one;
      try {
        await one.done;
      } catch (error) {
        failed++;
        if ((error as Error).name === "AbortError") break;
        await reportError(error);
      }
    }
    upload.current = null;
    setProgress(null);
    if (failed < list.length) showToast(t("files.uploaded"));
    setDialog((d) => (d?.kind === "upload" && failed === 0 ? null : d));
    if (pathRef.current === folder) void load(folder);
  }

  const dropHandlers = canEdit
    ? {
        onDragEnter: (e: DragEvent) => {
          if (!carriesFiles(e.dataTransfer.types) || progress) return;
          e.preventDefault();
          dragDepth.current++;
          setDragging(true);
        },
        onDragOver: (e: DragEvent) => {
          if (!carriesFiles(e.dataTransfer.types) || progress) return;
          e.preventDefault();
          e.dataTransfer.dropEffect = "copy";
        },
        onDragLeave: () => {
          dragDepth.current = Math.max(0, dragDepth.current - 1);
          if (dragDepth.current === 0) setDragging(false);
        },
        onDrop: (e: DragEvent) => {
          if (!carriesFiles(e.dataTransfer.types)) return;
          e.preventDefault();
          dragDepth.current = 0;
          setDragging(false);
          if (progress) return;
          const { files: dropped, folders } = readDrop(e.dataTransfer.items, e.dataTransfer.files);
          if (folders > 0) showToast(t("errors.ErrDirectoryUploadNotSupported"), { error: true });
          void uploadAll(dropped);
        },
      }
    : {};

  const prefetched = useRef(false);
  const prefetch = () => {
    if (prefetched.current) return;
    prefetched.current = true;
    void loadDialogs().catch(() => (prefetched.current = false));
  };

  const busy = working || progress !== null;
  return (
    <section className="card files-manager" data-testid="file-manager" aria-label={t("files.title")} aria-busy={loading || busy} onPointerEnter={prefetch} onFocus={prefetch}>
      <div className="files-toolbar">
        <Breadcrumb serverId={serverId} path={path} onOpen={(target) => void load(target, "push")} />
        <div className="files-actions">
          <button type="button" className="icon-btn" data-hotkey="r" data-action="refresh" title={`${t("files.refresh")} (r)`} aria-label={t("files.refresh")} onClick={() => void load(pathRef.current)}>
            <Icon path={refreshIcon} size={20} />
          </button>
          {canEdit ? (
            <>
              <button type="button" className="icon-btn" data-action="archive-folder" disabled={busy || files.length === 0} title={t("files.archiveFolder")} aria-label={t("files.archiveFolder")} onClick={() => archiveEntries(baseName(path), files.map((f) => joinPath(path, f.name)))}>
                <Icon path={archiveIcon} size={20} />
              </button>
              <button type="button" className="btn" data-hotkey="n f" data-action="new-file" title={`${t("files.newFile")} (n f)`} onClick={() => setDialog({ kind: "new", folder: false })}>
                <Icon path={fileAdd} size={20} />
                <span>{t("files.newFile")}</span>
              </button>
              <button type="button" className="btn" data-hotkey="n d" data-action="new-folder" title={`${t("files.newFolder")} (n d)`} onClick={() => setDialog({ kind: "new", folder: true })}>
                <Icon path={folderAdd} size={20} />
                <span>{t("files.newFolder")}</span>
              </button>
              <button type="button" className="btn btn-primary" data-hotkey="u" data-action="upload" title={`${t("files.upload")} (u)`} onClick={() => setDialog({ kind: "upload" })}>
                <Icon path={uploadIcon} size={20} />
                <span>{t("files.upload")}</span>
              </button>
            </>
          ) : null}
        </div>
      </div>
      {progress && dialog?.kind !== "upload" ? <ProgressBar progress={progress} /> : null}
      <div className={dragging ? "files-list is-dragging" : "files-list"} {...dropHandlers}>
        <div className={loading || working ? "files-loading is-active" : "files-loading"} role="presentation" />
        <FileList
          serverId={serverId}
          path={path}
          folderLabel={folderLabel}
          files={files}
          canEdit={canEdit}
          local={hydrated}
          busy={busy}
          onOpenFolder={(target) => void load(target, "push")}
          onOpenFile={openFile}
          onExtract={(entry) => void change(async () => {
            await extractArchive(serverId, joinPath(path, entry.name), path);
            return t("files.extracted", { name: entry.name });
          })}
          onArchive={(entry) => archiveEntries(entry.name, [joinPath(path, entry.name)])}
          onDelete={(entry) => setDialog({ kind: "delete", entry })}
        />
        {files.length === 0 && !loading ? <p className="files-empty muted">{t("files.empty")}</p> : null}
        {dragging ? (
          <div className="files-drop" aria-hidden="true">
            <Icon path={uploadIcon} size={36} />
            <span>{t("files.dropHere", { folder: folderLabel })}</span>
          </div>
        ) : null}
      </div>

      <Suspense fallback={null}>
      {dialog?.kind === "new" ? <NameDialog folder={dialog.folder} taken={taken} onCreate={(name) => create(name, dialog.folder)} onClose={() => setDialog(null)} /> : null}
      {dialog?.kind === "upload" ? <UploadDialog folderLabel={folderLabel} progress={progress} onStart={(list) => void uploadAll(list)} onClose={() => setDialog(null)} /> : null}
      {dialog?.kind === "delete" ? (
        <DeleteDialog
          name={dialog.entry.name}
          folder={!dialog.entry.isFile}
          onClose={() => setDialog(null)}
          onConfirm={async () => {
            const name = dialog.entry.name;
            if (await change(async () => {
              await deleteEntry(serverId, joinPath(path, name));
              return t("files.deleted", { name });
            })) setDialog(null);
          }}
        />
      ) : null}
      {dialog?.kind === "edit" ? <EditorOverlay key={dialog.path} serverId={serverId} path={dialog.path} name={dialog.name} readOnly={!canEdit} onClose={() => setDialog(null)} onSaved={() => void load(pathRef.current)} /> : null}
      {dialog?.kind === "image" ? <ImageViewer url={fileUrl(serverId, dialog.path)} name={dialog.name} onClose={() => setDialog(null)} /> : null}
      </Suspense>
    </section>
  );
}

export default defineIsland<FileManagerProps>({
  name: "FileManager",
  component: FileManagerView,
  messages: ["files.", "common.", "errors.ErrDirectoryUploadNotSupported"],
  hydrate: "load",
});

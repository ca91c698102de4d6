// The file manager: breadcrumb and folder listing, search by
// name, create file (n f) and folder (n d), refresh (r), upload (u) one file at a time with a
// progress bar, drag and drop, archive the folder, per item edit/view, extract, download,
// archive, delete, rename, move, copy and permissions, and a selection of several entries to
// download as one zip, move, copy, archive or delete. The server renders the folder asked for in
// the address (?path=), and every control is a link or a plain form posting to the panel's form
// routes, so all of it works before any script; once hydrated, listings and changes go over
// HTTP to the daemon's file API through the proxy, and the island's dialogs replace the forms.
import { shownName } from "../core/files/shown-name";
import { formPath, nameFromForm } from "../core/files/form-name";
import { Suspense, lazy, useEffect, useRef, useState, type DragEvent, type MouseEvent } from "react";
import { archiveName, baseName, editRefusal, isExtractable, isImage, joinPath, MAX_EDITABLE_SIZE, normalizePath, type FileEntry, type FolderListing } from "../core/files";
import { formatBytes } from "../core/units";
import { defineIsland } from "./define";
import { useT } from "./lib/i18n";
import { Icon } from "./lib/Icon";
import { restart as refreshIcon } from "./lib/icons";
import { archive as archiveIcon, search as searchIcon, upload as uploadIcon } from "./files/icons";
import { reportError } from "./shell/report-error";
import { showToast } from "./shell/toasts";
import { Breadcrumb } from "./files/Breadcrumb";
import { FileList } from "./files/FileList";
import { NewEntryForms } from "./files/NewEntryForms";
import { SelectionBar } from "./files/SelectionBar";
import { ProgressBar, type UploadProgress } from "./files/ProgressBar";
import { carriesFiles, readDrop } from "./files/drop";
import { listingError } from "./files/listing-error";
import { changeMode, copyEntry, createArchive, createFolder, deleteEntry, extractArchive, fileUrl, listFolder, moveEntry, uploadFile, writeFile, zipUrl, type Upload } from "./files/file-api";
import { sortEntries } from "./files/listing";
import { filesFormUrl, filesPageUrl, pathFromSearch } from "../core/files/page-urls";

/** The overlays' chunk: fetched when the pointer or focus first comes to the file manager. */
const loadDialogs = () => import("./files/dialogs");
const NameDialog = lazy(() => loadDialogs().then((m) => ({ default: m.NameDialog })));
const UploadDialog = lazy(() => loadDialogs().then((m) => ({ default: m.UploadDialog })));
const DeleteDialog = lazy(() => loadDialogs().then((m) => ({ default: m.DeleteDialog })));
const ImageViewer = lazy(() => loadDialogs().then((m) => ({ default: m.ImageViewer })));
const EditorOverlay = lazy(() => loadDialogs().then((m) => ({ default: m.EditorOverlay })));
const DestinationDialog = lazy(() => loadDialogs().then((m) => ({ default: m.DestinationDialog })));
const ModeDialog = lazy(() => loadDialogs().then((m) => ({ default: m.ModeDialog })));
const ExtractDialog = lazy(() => loadDialogs().then((m) => ({ default: m.ExtractDialog })));
const ArchiveMenu = lazy(() => loadDialogs().then((m) => ({ default: m.ArchiveMenu })));

export interface FileManagerProps {
  serverId: string;
  /** putServerFiles (or admin): create, upload, edit, archive, extract, delete, rename, move, copy, chmod */
  canEdit: boolean;
  /** the folder the page was asked for */
  path: string;
  /** its listing as the server got it; null when it could not (the browser then asks, unless `error` says why) */
  listing: FolderListing | null;
  /** why the server could not list it (a node that does not answer, a folder that is not there) */
  error?: string | null;
  /** the search the page was asked for (?q=), kept in the search field */
  query?: string;
}

type Dialog =
  | { kind: "new"; folder: boolean }
  | { kind: "upload" }
  | { kind: "delete"; names: string[] }
  | { kind: "rename"; name: string }
  | { kind: "transfer"; copy: boolean; names: string[] }
  | { kind: "mode"; name: string; mode: number | undefined }
  | { kind: "edit"; path: string; name: string }
  | { kind: "image"; path: string; name: string }
  | { kind: "archive"; path: string; name: string }
  | { kind: "extract"; path: string; name: string };

type History = "push" | "replace" | "none";

function FileManagerView({ serverId, canEdit, path: askedPath, listing, error = null, query = "" }: FileManagerProps) {
  const t = useT();
  const [path, setPath] = useState(normalizePath(listing?.path ?? askedPath));
  const [files, setFiles] = useState<FileEntry[]>(() => sortEntries(listing?.files ?? []));
  // A folder with more entries than one listing carries: said above the list, never shown as if whole.
  const [truncated, setTruncated] = useState(listing?.truncated === true);
  const [loadError, setLoadError] = useState<string | null>(error);
  const [loading, setLoading] = useState(listing === null && error === null);
  const [working, setWorking] = useState(false);
  const [hydrated, setHydrated] = useState(false);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [dragging, setDragging] = useState(false);
  const request = useRef(0);
  const pathRef = useRef(path);
  const dragDepth = useRef(0);
  const upload = useRef<Upload | null>(null);

  const folderLabel = path === "" ? t("files.root") : `/${shownName(path)}`;
  const taken = new Set(files.map((f) => f.name));
  const formId = `files-form-${serverId}`;

  /** Lists `target`; a later call wins over an earlier one still on its way. */
  async function load(target: string, history: History = "none"): Promise<void> {
    const id = ++request.current;
    setLoading(true);
    try {
      const answer = await listFolder(serverId, normalizePath(target));
      if (id !== request.current) return;
      const shown = normalizePath(answer.path);
      const names = new Set(answer.files.map((f) => f.name));
      setSelected((s) => new Set(shown === pathRef.current ? [...s].filter((name) => names.has(name)) : []));
      setFiles(sortEntries(answer.files));
      setTruncated(answer.truncated === true);
      setLoadError(null);
      setPath(shown);
      pathRef.current = shown;
      if (history !== "none") {
        const url = filesPageUrl(serverId, shown);
        if (history === "push" && url !== location.pathname + location.search) window.history.pushState({ filesPath: shown }, "", url);
        else window.history.replaceState({ filesPath: shown }, "", url);
      }
    } catch (failure) {
      // A listing that fails clears loading and says why where the listing would be, with a
      // retry, rather than look like an empty folder.
      if (id === request.current) setLoadError(await listingError(failure));
    } finally {
      if (id === request.current) setLoading(false);
    }
  }

  useEffect(() => {
    setHydrated(true);
    if (listing === null && error === null) void load(askedPath);
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
    } catch (failure) {
      await reportError(failure);
      return false;
    } finally {
      setWorking(false);
      void load(pathRef.current);
    }
  }

  function openFile(entry: FileEntry): void {
    const full = joinPath(path, entry.name);
    if (isImage(entry.name)) return setDialog({ kind: "image", path: full, name: entry.name });
    // Refused before anything is fetched.
    const refusal = editRefusal(entry.name, entry.size);
    // An archive is not edited: its name offers what can be done with it instead.
    if (refusal === "archive") return setDialog({ kind: "archive", path: full, name: entry.name });
    if (refusal === "tooLarge") return void showToast(t("files.tooLarge", { name: shownName(entry.name), max: formatBytes(MAX_EDITABLE_SIZE, "binary", 2, t.locale) }), { error: true });
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

  /** What a submit button of the form asked for: "row" acts on its entry, "do" on the selection. */
  function act(action: string, names: string[]): void {
    if (names.length === 0) return;
    const paths = names.map((name) => joinPath(path, name));
    const entry = files.find((f) => f.name === names[0]);
    switch (action) {
      case "download": {
        const link = document.createElement("a");
        link.href = names.length === 1 && entry?.isFile ? fileUrl(serverId, paths[0]!) : zipUrl(serverId, paths);
        link.download = "";
        link.click();
        return;
      }
      case "extract":
        return setDialog({ kind: "extract", path: paths[0]!, name: names[0]! });
      case "archive":
        return archiveEntries(names.length === 1 ? names[0]! : baseName(path), paths);
      case "delete":
        return setDialog({ kind: "delete", names });
      case "move":
      case "copy":
        return setDialog({ kind: "transfer", copy: action === "copy", names });
      case "rename":
        return setDialog({ kind: "rename", name: names[0]! });
      case "mode":
        return setDialog({ kind: "mode", name: names[0]!, mode: entry?.mode });
    }
  }

  /** Clicks on the form's submit buttons, taken over from the form route once hydrated. */
  function onFormClick(e: MouseEvent<HTMLFormElement>): void {
    const button = (e.target as Element).closest<HTMLButtonElement>('button[type="submit"]');
    if (!button || (button.name !== "row" && button.name !== "do")) return;
    e.preventDefault();
    button.closest("details")?.removeAttribute("open");
    if (button.name === "do") return act(button.value, [...selected]);
    const colon = button.value.indexOf(":");
    const name = nameFromForm(button.value.slice(colon + 1));
    if (name !== null) act(button.value.slice(0, colon), [name]);
  }

  async function transfer(names: string[], copy: boolean, destination: string): Promise<boolean> {
    const folder = normalizePath(destination);
    const ok = await change(async () => {
      for (const name of names) await (copy ? copyEntry : moveEntry)(serverId, joinPath(path, name), joinPath(folder, name));
      return t(copy ? "files.copied" : "files.moved", { count: names.length, folder: folder === "" ? t("files.root") : `/${folder}` });
    });
    if (ok) setSelected(new Set());
    return ok;
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
      } catch (failure) {
        failed++;
        if ((failure as Error).name === "AbortError") break;
        await reportError(failure);
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
  const pageUrl = filesPageUrl(serverId, path);
  const select = (names: string[], on: boolean) =>
    setSelected((s) => {
      const next = new Set(s);
      for (const name of names) (on ? next.add(name) : next.delete(name));
      return next;
    });
  return (
    <section className="card files-manager" data-testid="file-manager" aria-label={t("files.title")} aria-busy={loading || busy} onPointerEnter={prefetch} onFocus={prefetch}>
      <div className="files-toolbar">
        <Breadcrumb serverId={serverId} path={path} onOpen={(target) => void load(target, "push")} />
        <div className="files-actions">
          <a
            className="icon-btn"
            href={pageUrl}
            data-hotkey="r"
            data-action="refresh"
            title={`${t("files.refresh")} (r)`}
            aria-label={t("files.refresh")}
            onClick={(e) => {
              e.preventDefault();
              void load(pathRef.current);
            }}
          >
            <Icon path={refreshIcon} size={20} />
          </a>
          {canEdit ? (
            <>
              <button
                type="submit"
                form={formId}
                name="do"
                value="archiveFolder"
                className="icon-btn"
                data-action="archive-folder"
                disabled={busy || files.length === 0}
                title={t("files.archiveFolder")}
                aria-label={t("files.archiveFolder")}
                onClick={(e) => {
                  e.preventDefault();
                  archiveEntries(baseName(path), files.map((f) => joinPath(path, f.name)));
                }}
              >
                <Icon path={archiveIcon} size={20} />
              </button>
              <NewEntryForms serverId={serverId} path={path} onOpen={(what) => setDialog(what === "upload" ? { kind: "upload" } : { kind: "new", folder: what === "folder" })} />
            </>
          ) : null}
        </div>
      </div>
      {/* A plain GET of the page: the server searches and shows the results above the listing. */}
      <form className="files-search" method="get" action={`/server/${encodeURIComponent(serverId)}`} role="search">
        <input type="hidden" name="tab" value="files" />
        <input type="hidden" name="path" value={path} />
        <Icon path={searchIcon} size={18} />
        <input type="search" name="q" defaultValue={query} placeholder={t("files.searchPlaceholder", { folder: folderLabel })} aria-label={t("files.search")} />
        <button type="submit" className="btn">
          {t("files.search")}
        </button>
      </form>
      {progress && dialog?.kind !== "upload" ? <ProgressBar progress={progress} /> : null}
      {loadError ? (
        <div className="alert alert-error files-load-error" role="alert" data-testid="files-load-error">
          <span>{loadError}</span>
          <a
            className="btn"
            href={pageUrl}
            data-action="retry"
            onClick={(e) => {
              e.preventDefault();
              void load(pathRef.current);
            }}
          >
            {t("files.retry")}
          </a>
        </div>
      ) : null}
      <form id={formId} method="post" action={filesFormUrl(serverId, "act")} onClick={onFormClick} onSubmit={(e) => e.preventDefault()}>
        <input type="hidden" name="folder" value={formPath(path)} />
        {!loadError && (!hydrated || selected.size > 0) && files.length > 0 ? <SelectionBar count={selected.size} canEdit={canEdit} busy={busy} local={hydrated} onClear={() => setSelected(new Set())} /> : null}
        <div className={dragging ? "files-list is-dragging" : "files-list"} {...dropHandlers}>
          <div className={loading || working ? "files-loading is-active" : "files-loading"} role="presentation" />
          {loadError ? null : (
            <FileList
              serverId={serverId}
              path={path}
              folderLabel={folderLabel}
              files={files}
              canEdit={canEdit}
              local={hydrated}
              busy={busy}
              selected={selected}
              onSelect={select}
              onOpenFolder={(target) => void load(target, "push")}
              onOpenFile={openFile}
            />
          )}
          {files.length === 0 && !loading && !loadError ? <p className="files-empty muted">{t("files.empty")}</p> : null}
          {truncated && !loadError ? <p className="files-truncated muted small" role="status">{t("files.listingTruncated", { count: files.length })}</p> : null}
          {dragging ? (
            <div className="files-drop" aria-hidden="true">
              <Icon path={uploadIcon} size={36} />
              <span>{t("files.dropHere", { folder: folderLabel })}</span>
            </div>
          ) : null}
        </div>
      </form>

      <Suspense fallback={null}>
        {dialog?.kind === "new" ? <NameDialog folder={dialog.folder} taken={taken} onCreate={(name) => create(name, dialog.folder)} onClose={() => setDialog(null)} /> : null}
        {dialog?.kind === "rename" ? (
          <NameDialog
            folder={false}
            rename={dialog.name}
            taken={taken}
            onCreate={async (name) => {
              const from = dialog.name;
              if (await change(async () => {
                await moveEntry(serverId, joinPath(path, from), joinPath(path, name));
                return t("files.renamed", { from: shownName(from), name: shownName(name) });
              })) setDialog(null);
            }}
            onClose={() => setDialog(null)}
          />
        ) : null}
        {dialog?.kind === "upload" ? <UploadDialog folderLabel={folderLabel} progress={progress} onStart={(list) => void uploadAll(list)} onClose={() => setDialog(null)} /> : null}
        {dialog?.kind === "delete" ? (
          <DeleteDialog
            names={dialog.names}
            folder={dialog.names.length === 1 && files.find((f) => f.name === dialog.names[0])?.isFile === false}
            onClose={() => setDialog(null)}
            onConfirm={async () => {
              const names = dialog.names;
              if (await change(async () => {
                for (const name of names) await deleteEntry(serverId, joinPath(path, name));
                return names.length === 1 ? t("files.deleted", { name: shownName(names[0]!) }) : t("files.deletedCount", { count: names.length });
              })) {
                setDialog(null);
                setSelected(new Set());
              }
            }}
          />
        ) : null}
        {dialog?.kind === "transfer" ? <DestinationDialog copy={dialog.copy} names={dialog.names} folder={path} onConfirm={(destination) => transfer(dialog.names, dialog.copy, destination).then((ok) => ok && setDialog(null))} onClose={() => setDialog(null)} /> : null}
        {dialog?.kind === "mode" ? (
          <ModeDialog
            name={dialog.name}
            mode={dialog.mode}
            onConfirm={async (mode) => {
              const name = dialog.name;
              if (await change(async () => {
                await changeMode(serverId, joinPath(path, name), mode);
                return t("files.modeChanged", { name: shownName(name), mode });
              })) setDialog(null);
            }}
            onClose={() => setDialog(null)}
          />
        ) : null}
        {dialog?.kind === "edit" ? <EditorOverlay key={dialog.path} serverId={serverId} path={dialog.path} name={dialog.name} readOnly={!canEdit} onClose={() => setDialog(null)} onSaved={() => void load(pathRef.current)} /> : null}
        {dialog?.kind === "archive" ? (
          <ArchiveMenu
            name={dialog.name}
            url={fileUrl(serverId, dialog.path)}
            canExtract={canEdit && isExtractable(dialog.name)}
            onExtract={() => setDialog({ kind: "extract", path: dialog.path, name: dialog.name })}
            onClose={() => setDialog(null)}
          />
        ) : null}
        {dialog?.kind === "extract" ? (
          <ExtractDialog
            serverId={serverId}
            archive={dialog.path}
            name={dialog.name}
            folder={path}
            onConfirm={async (destination, makeFolder) => {
              const archive = dialog;
              if (await change(async () => {
                if (makeFolder) await createFolder(serverId, destination);
                await extractArchive(serverId, archive.path, destination);
                return t("files.extracted", { name: shownName(archive.name) });
              })) setDialog(null);
            }}
            onClose={() => setDialog(null)}
          />
        ) : null}
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

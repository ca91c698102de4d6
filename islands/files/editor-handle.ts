// What the edit overlay needs from an editor, and the plain <textarea> it falls back to when the
// CodeMirror chunk cannot load (a flaky link should not stop anyone from fixing a config file).

export interface EditorOptions {
  /** the file's name, for its language */
  name: string;
  /** the editor's accessible name */
  label: string;
  readOnly: boolean;
  /** the file's own line ending, which getText() joins lines with, so a save changes no other byte */
  lineSeparator: "\n" | "\r\n";
  onChange: () => void;
  onSave: () => void;
  /** CodeMirror's own texts (search panel, folding), translated */
  phrases: Record<string, string>;
}

export interface EditorHandle {
  getText(): string;
  focus(): void;
  destroy(): void;
}

/** CodeMirror phrase → message key; the overlay fills in the translations. */
export const EDITOR_PHRASES = {
  Find: "files.editor.find",
  Replace: "files.editor.replace",
  next: "files.editor.next",
  previous: "files.editor.previous",
  all: "files.editor.all",
  "match case": "files.editor.matchCase",
  regexp: "files.editor.regexp",
  "by word": "files.editor.byWord",
  replace: "files.editor.replaceOne",
  "replace all": "files.editor.replaceAll",
  close: "files.editor.close",
  "Go to line": "files.editor.goToLine",
  go: "files.editor.go",
  "current match": "files.editor.currentMatch",
  "on line": "files.editor.onLine",
  "replaced $ matches": "files.editor.replacedMatches",
  "replaced match on line $": "files.editor.replacedOnLine",
  "folded code": "files.editor.foldedCode",
  unfold: "files.editor.unfold",
  to: "files.editor.to",
  "Fold line": "files.editor.foldLine",
  "Unfold line": "files.editor.unfoldLine",
  "Folded lines": "files.editor.foldedLines",
  "Unfolded lines": "files.editor.unfoldedLines",
  "Control character": "files.editor.controlCharacter",
  "Selection deleted": "files.editor.selectionDeleted",
} as const;

export function plainEditor(parent: HTMLElement, doc: string, options: EditorOptions): EditorHandle {
  const area = document.createElement("textarea");
  area.className = "files-plain-editor";
  area.value = doc;
  area.spellcheck = false;
  area.readOnly = options.readOnly;
  area.setAttribute("aria-label", options.label);
  area.addEventListener("input", () => options.onChange());
  area.addEventListener("keydown", (event) => {
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "s") {
      event.preventDefault();
      options.onSave();
    }
  });
  parent.replaceChildren(area);
  return {
    // A browser's textarea separates lines with "\n" whatever it was given.
    getText: () => area.value.replace(/\r?\n/g, options.lineSeparator),
    focus: () => area.focus(),
    destroy: () => area.remove(),
  };
}

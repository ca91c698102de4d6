// The code editor of the edit overlay: CodeMirror 6 with a lean set-up (line numbers, history,
// folding, bracket matching, search), colours from the theme's --k-* variables so light and dark
// both hold, and the language loaded by file name. This module is only ever imported dynamically:
// it and CodeMirror are a chunk of their own that loads when the overlay opens.
import { EditorState, Compartment, type Extension } from "@codemirror/state";
import {
  EditorView,
  crosshairCursor,
  drawSelection,
  dropCursor,
  highlightActiveLine,
  highlightActiveLineGutter,
  highlightSpecialChars,
  keymap,
  lineNumbers,
  rectangularSelection,
} from "@codemirror/view";
import { bracketMatching, foldGutter, foldKeymap, indentOnInput, syntaxHighlighting } from "@codemirror/language";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { highlightSelectionMatches, searchKeymap } from "@codemirror/search";
import { classHighlighter } from "@lezer/highlight";
import { loadLanguage } from "./languages";
import type { EditorHandle, EditorOptions } from "./editor-handle";

/** Token colours are CSS (files.css, .tok-*), so the theme menu can switch them without a reload. */
const theme = EditorView.theme({
  "&": { height: "100%", color: "var(--k-text)", backgroundColor: "var(--k-background)", fontSize: ".85rem" },
  ".cm-scroller": { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace', lineHeight: "1.5" },
  ".cm-content": { caretColor: "var(--k-text)" },
  "&.cm-focused": { outline: "none" },
  "&.cm-focused .cm-cursor, .cm-cursor": { borderLeftColor: "var(--k-text)" },
  "&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, .cm-content ::selection": {
    backgroundColor: "color-mix(in srgb, var(--k-primary) 28%, transparent)",
  },
  ".cm-gutters": { backgroundColor: "var(--k-surface-alt)", color: "var(--k-muted)", borderRight: "1px solid var(--k-border)" },
  ".cm-activeLine": { backgroundColor: "color-mix(in srgb, var(--k-primary) 7%, transparent)" },
  ".cm-activeLineGutter": { backgroundColor: "color-mix(in srgb, var(--k-primary) 14%, transparent)", color: "var(--k-text)" },
  ".cm-selectionMatch": { backgroundColor: "color-mix(in srgb, var(--k-warning) 22%, transparent)" },
  "&.cm-focused .cm-matchingBracket": { backgroundColor: "color-mix(in srgb, var(--k-success) 25%, transparent)" },
  "&.cm-focused .cm-nonmatchingBracket": { backgroundColor: "color-mix(in srgb, var(--k-error) 25%, transparent)" },
  ".cm-searchMatch": { backgroundColor: "color-mix(in srgb, var(--k-warning) 30%, transparent)", outline: "1px solid color-mix(in srgb, var(--k-warning) 60%, transparent)" },
  ".cm-searchMatch.cm-searchMatch-selected": { backgroundColor: "color-mix(in srgb, var(--k-primary) 35%, transparent)" },
  ".cm-panels": { backgroundColor: "var(--k-surface)", color: "var(--k-text)" },
  ".cm-panels.cm-panels-bottom": { borderTop: "1px solid var(--k-border)" },
  ".cm-panels.cm-panels-top": { borderBottom: "1px solid var(--k-border)" },
  ".cm-panel input, .cm-panel button, .cm-panel label": { fontSize: ".85rem" },
  ".cm-textfield": { backgroundColor: "var(--k-background)", color: "var(--k-text)", border: "1px solid var(--k-border)", borderRadius: "4px" },
  ".cm-button": { backgroundImage: "none", backgroundColor: "var(--k-surface-alt)", color: "var(--k-text)", border: "1px solid var(--k-border)", borderRadius: "4px" },
  ".cm-foldPlaceholder": { backgroundColor: "var(--k-surface-alt)", color: "var(--k-muted)", border: "1px solid var(--k-border)" },
  ".cm-tooltip": { backgroundColor: "var(--k-surface)", color: "var(--k-text)", border: "1px solid var(--k-border)" },
});

function pageIsDark(): boolean {
  const root = document.documentElement.classList;
  if (root.contains("dark")) return true;
  if (root.contains("light")) return false;
  return typeof matchMedia === "function" && matchMedia("(prefers-color-scheme: dark)").matches;
}

export function createEditor(parent: HTMLElement, doc: string, options: EditorOptions): EditorHandle {
  const language = new Compartment();
  const extensions: Extension[] = [
    lineNumbers(),
    highlightActiveLineGutter(),
    highlightSpecialChars(),
    history(),
    foldGutter(),
    drawSelection(),
    dropCursor(),
    EditorState.allowMultipleSelections.of(true),
    indentOnInput(),
    syntaxHighlighting(classHighlighter),
    bracketMatching(),
    rectangularSelection(),
    crosshairCursor(),
    highlightActiveLine(),
    highlightSelectionMatches(),
    keymap.of([
      { key: "Mod-s", preventDefault: true, run: () => (options.onSave(), true) },
      ...defaultKeymap,
      ...searchKeymap,
      ...historyKeymap,
      ...foldKeymap,
      indentWithTab,
    ]),
    EditorState.phrases.of(options.phrases),
    EditorState.lineSeparator.of(options.lineSeparator),
    EditorView.darkTheme.of(pageIsDark()),
    EditorState.readOnly.of(options.readOnly),
    EditorView.editable.of(!options.readOnly),
    EditorView.contentAttributes.of({ "aria-label": options.label }),
    EditorView.updateListener.of((update) => {
      if (update.docChanged) options.onChange();
    }),
    theme,
    language.of([]),
  ];
  const view = new EditorView({ parent, state: EditorState.create({ doc, extensions }) });
  void loadLanguage(options.name).then((support) => {
    if (support) view.dispatch({ effects: language.reconfigure(support) });
  });
  return {
    // sliceDoc joins lines with the state's line separator (the file's own); doc.toString() would use "\n".
    getText: () => view.state.sliceDoc(),
    focus: () => view.focus(),
    destroy: () => view.destroy(),
  };
}

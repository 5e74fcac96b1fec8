import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { bracketMatching, HighlightStyle, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { Compartment, EditorState, type Extension } from '@codemirror/state';
import {
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
} from '@codemirror/view';
import { tags } from '@lezer/highlight';

// The lander file editor, CodeMirror. Only ever imported dynamically (LanderCodeEditor.tsx), so CodeMirror
// stays out of every chunk but this one; and it imports nothing of React or Mantine, whose modules a chunk
// shared with the first load would split into extra files the first load then fetches. Each language is a
// chunk of its own again, fetched for a file of its kind (HTML's brings CSS's and JavaScript's, for its
// style and script elements).

/** The language of a lander file by its extension; SVG, XML, text and the rest are edited as plain text. */
export async function languageOf(path: string): Promise<Extension> {
  const extension = /\.([^./]+)$/.exec(path)?.[1]?.toLowerCase() ?? '';
  switch (extension) {
    case 'html':
    case 'htm':
      return (await import('@codemirror/lang-html')).html();
    case 'css':
      return (await import('@codemirror/lang-css')).css();
    case 'js':
    case 'mjs':
      return (await import('@codemirror/lang-javascript')).javascript();
    case 'json':
      return (await import('@codemirror/lang-json')).json();
    default:
      return [];
  }
}

// Mantine's `-text` colours follow the colour scheme, so the highlighting stays readable in dark mode.
const highlighting = HighlightStyle.define([
  {
    tag: [tags.keyword, tags.modifier, tags.controlKeyword, tags.operatorKeyword],
    color: 'var(--mantine-color-violet-text)',
  },
  { tag: [tags.tagName, tags.typeName, tags.className], color: 'var(--mantine-color-red-text)' },
  { tag: [tags.attributeName, tags.propertyName], color: 'var(--mantine-color-orange-text)' },
  {
    tag: [tags.string, tags.attributeValue, tags.regexp, tags.special(tags.string)],
    color: 'var(--mantine-color-green-text)',
  },
  {
    tag: [tags.number, tags.bool, tags.null, tags.atom, tags.unit, tags.color],
    color: 'var(--mantine-color-blue-text)',
  },
  { tag: [tags.comment, tags.meta, tags.documentMeta], color: 'var(--mantine-color-dimmed)', fontStyle: 'italic' },
  {
    tag: [tags.definition(tags.variableName), tags.function(tags.variableName)],
    color: 'var(--mantine-color-cyan-text)',
  },
  { tag: tags.invalid, color: 'var(--mantine-color-error)' },
]);

const look = EditorView.theme({
  '&': {
    fontSize: '13px',
    height: '420px',
    color: 'var(--mantine-color-text)',
    backgroundColor: 'var(--mantine-color-body)',
    border: '1px solid var(--mantine-color-default-border)',
    borderRadius: 'var(--mantine-radius-sm)',
  },
  '&.cm-focused': { outline: 'none', borderColor: 'var(--mantine-primary-color-filled)' },
  '&[data-invalid]': { borderColor: 'var(--mantine-color-error)' },
  '.cm-scroller': { fontFamily: 'var(--mantine-font-family-monospace)', overflow: 'auto' },
  '.cm-gutters': {
    backgroundColor: 'var(--mantine-color-default-hover)',
    color: 'var(--mantine-color-dimmed)',
    borderInlineEnd: '1px solid var(--mantine-color-default-border)',
  },
  '.cm-activeLine, .cm-activeLineGutter': { backgroundColor: 'var(--mantine-color-default-hover)' },
  '.cm-cursor': { borderLeftColor: 'var(--mantine-color-text)' },
});

const basics: Extension = [
  lineNumbers(),
  highlightActiveLineGutter(),
  highlightActiveLine(),
  history(),
  drawSelection(),
  indentOnInput(),
  bracketMatching(),
  syntaxHighlighting(highlighting),
  // Tab indents; Escape then Tab (or Ctrl-M) still moves the focus on, as CodeMirror provides.
  keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
  EditorView.contentAttributes.of({ spellcheck: 'false', autocorrect: 'off', autocapitalize: 'off' }),
  look,
];

export interface LanderEditor {
  /** Replaces the whole text (a change from outside the editor). */
  setText(text: string): void;
  /** Marks the text refused, described by the message of this id; undefined when it is fine again. */
  setErrorId(errorId: string | undefined): void;
  destroy(): void;
}

/** Opens `text` in an editor inside `parent`, named by `path`, which calls `onChange` with each new text. */
export function createLanderEditor(
  parent: HTMLElement,
  { path, text, onChange }: { path: string; text: string; onChange: (text: string) => void },
): LanderEditor {
  const language = new Compartment();
  const invalid = new Compartment();
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: text,
      extensions: [
        basics,
        language.of([]),
        invalid.of([]),
        EditorView.contentAttributes.of({ 'aria-label': path }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) onChange(update.state.doc.toString());
        }),
      ],
    }),
  });
  let open = true;
  // The text is there at once; its highlighting follows when the language's chunk has come.
  languageOf(path).then(
    (extension) => {
      if (open) view.dispatch({ effects: language.reconfigure(extension) });
    },
    () => {
      // A language that failed to load leaves the file as plain text, still editable.
    },
  );
  return {
    setText(next) {
      if (view.state.doc.toString() !== next) {
        view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: next } });
      }
    },
    setErrorId(errorId) {
      const attributes = errorId
        ? [
            EditorView.contentAttributes.of({ 'aria-invalid': 'true', 'aria-describedby': errorId }),
            EditorView.editorAttributes.of({ 'data-invalid': 'true' }),
          ]
        : [];
      view.dispatch({ effects: invalid.reconfigure(attributes) });
    },
    destroy() {
      open = false;
      view.destroy();
    },
  };
}

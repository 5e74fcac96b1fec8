import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { bracketMatching, HighlightStyle, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import type { Extension } from '@codemirror/state';
import {
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
} from '@codemirror/view';
import { tags } from '@lezer/highlight';

// What the lander file editor is made of. Imported only by LanderCodeEditor, itself loaded on demand, so
// CodeMirror stays out of every chunk but the editor's; each language is a chunk of its own again, fetched
// for a file of its kind (HTML's brings CSS's and JavaScript's, for its style and script elements).

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

/** Everything but the document, the language and what listens to it. */
export const editorBasics: Extension = [
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

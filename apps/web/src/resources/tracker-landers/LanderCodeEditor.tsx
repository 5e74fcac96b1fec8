import { Compartment, EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { Text } from '@mantine/core';
import { type ReactNode, useEffect, useId, useRef } from 'react';
import { editorBasics, languageOf } from './codeEditorSetup';

export interface LanderCodeEditorProps {
  /** The file's path: its extension picks the language, and it names the editor to assistive technology. */
  path: string;
  /** The text the editor opens with; a later change from outside replaces what is in it. */
  value: string;
  onChange: (value: string) => void;
  error?: ReactNode;
}

/**
 * A lander file in CodeMirror, loaded on demand (see LanderFilesPanel): line numbers, the language of the
 * file's extension, undo. Always left to right, as code is, in a right-to-left dashboard too.
 */
export function LanderCodeEditor({ path, value, onChange, error }: LanderCodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const attributes = useRef(new Compartment());
  const language = useRef(new Compartment());
  // The listener is made once with the view; it calls the newest onChange through this.
  const changed = useRef(onChange);
  changed.current = onChange;
  const errorId = useId();
  const invalid = Boolean(error);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the view is made once per file; value and error reach it below.
  useEffect(() => {
    if (!host.current) return;
    const made = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: value,
        extensions: [
          editorBasics,
          language.current.of([]),
          EditorView.contentAttributes.of({ 'aria-label': path }),
          attributes.current.of(errorAttributes(false, errorId)),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) changed.current(update.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = made;
    // The text is there at once; its highlighting follows when the language's chunk has come.
    let open = true;
    languageOf(path).then(
      (extension) => {
        if (open) made.dispatch({ effects: language.current.reconfigure(extension) });
      },
      () => {
        // A language that failed to load leaves the file as plain text, still editable.
      },
    );
    return () => {
      open = false;
      made.destroy();
      view.current = null;
    };
  }, [path]);

  useEffect(() => {
    const current = view.current;
    if (current && current.state.doc.toString() !== value) {
      current.dispatch({ changes: { from: 0, to: current.state.doc.length, insert: value } });
    }
  }, [value]);

  useEffect(() => {
    view.current?.dispatch({ effects: attributes.current.reconfigure(errorAttributes(invalid, errorId)) });
  }, [invalid, errorId]);

  return (
    <div>
      <div ref={host} dir="ltr" />
      {error && (
        <Text id={errorId} size="sm" c="red" mt={4}>
          {error}
        </Text>
      )}
    </div>
  );
}

function errorAttributes(invalid: boolean, errorId: string) {
  return invalid
    ? [
        EditorView.contentAttributes.of({ 'aria-invalid': 'true', 'aria-describedby': errorId }),
        EditorView.editorAttributes.of({ 'data-invalid': 'true' }),
      ]
    : [];
}

import { Alert, Loader } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../shared/errors/errorText';
import type { LanderEditor } from './codeEditor';

export interface LanderCodeEditorProps {
  /** The file's path: its extension picks the language, and it names the editor to assistive technology. */
  path: string;
  /** The text the editor opens with; a later change from outside replaces what is in it. */
  value: string;
  onChange: (value: string) => void;
  /** The id of the message saying why the text was refused, shown by the caller; none while it is fine. */
  errorId?: string;
}

/**
 * A lander file in CodeMirror (codeEditor.ts): line numbers, the language of the file's extension, undo.
 * CodeMirror is fetched when a file is first opened, never with the dashboard's first load
 * (e2e/specs/first-load-weight.test.ts). Always left to right, as code is, in a right-to-left page too.
 */
export function LanderCodeEditor({ path, value, onChange, errorId }: LanderCodeEditorProps) {
  const { t } = useTranslation();
  const host = useRef<HTMLDivElement>(null);
  const [editor, setEditor] = useState<LanderEditor | null>(null);
  const [failed, setFailed] = useState<unknown>(null);
  // The editor is made once per file; it calls the newest onChange, and reads the newest value as it opens.
  const latest = useRef({ value, onChange });
  latest.current = { value, onChange };

  useEffect(() => {
    let made: LanderEditor | null = null;
    let open = true;
    import('./codeEditor').then(
      ({ createLanderEditor }) => {
        if (!open || !host.current) return;
        made = createLanderEditor(host.current, {
          path,
          text: latest.current.value,
          onChange: (text) => latest.current.onChange(text),
        });
        setEditor(made);
      },
      (error: unknown) => {
        if (open) setFailed(error);
      },
    );
    return () => {
      open = false;
      made?.destroy();
      setEditor(null);
    };
  }, [path]);

  useEffect(() => editor?.setText(value), [editor, value]);
  useEffect(() => editor?.setErrorId(errorId), [editor, errorId]);

  return (
    <>
      {!editor && !failed && <Loader size="sm" />}
      {Boolean(failed) && (
        <Alert color="red" variant="light" role="alert">
          {errorText(t, failed)}
        </Alert>
      )}
      <div ref={host} dir="ltr" />
    </>
  );
}

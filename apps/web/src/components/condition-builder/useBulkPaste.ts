import { BULK_INSERT_MIN_CHUNKS, splitBulkInsert } from '@switchyard/domain';
import { type ClipboardEvent, useState } from 'react';

export interface BulkPaste {
  text: string;
  chunks: string[];
}

/**
 * §4 bulk insert: a paste that splits into at least `threshold` chunks is held back (the input never sees
 * it) until the operator answers "Possible bulk insert detected". Put `onPasteCapture` on an element
 * around the input: the capture phase runs before the input's own paste handling.
 */
export function useBulkPaste(threshold = BULK_INSERT_MIN_CHUNKS) {
  const [paste, setPaste] = useState<BulkPaste | null>(null);
  const onPasteCapture = (event: ClipboardEvent<HTMLElement>) => {
    const text = event.clipboardData?.getData('text/plain') ?? '';
    const chunks = splitBulkInsert(text, threshold);
    if (!chunks) return;
    event.preventDefault();
    event.stopPropagation();
    setPaste({ text: text.trim(), chunks });
  };
  return { paste, onPasteCapture, close: () => setPaste(null) };
}

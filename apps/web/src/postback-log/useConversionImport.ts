import type { ConversionState, PostbackOutcome } from '@switchyard/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import { postbackLogKeys } from './postbackLogKeys';

/** One imported line, taken as a postback would be. */
export interface ImportedLine {
  /** Its number in the text sent, from 1. */
  line: number;
  text: string;
  outcome: PostbackOutcome;
  /** What a network would have been answered. */
  status: number;
  message: string | null;
  conversion_id: string | null;
  state: ConversionState | null;
}

/** `POST /api/conversions/import`'s answer. */
export interface ConversionImport {
  lines: ImportedLine[];
  /** New conversions and state changes. */
  counted: number;
  /** Lines answered other than 200. */
  refused: number;
}

/** Imports lines of `clickid,status,payout,txid,currency`; the log shows them afterwards. */
export function useConversionImport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (text: string) => api<ConversionImport>('conversions/import', { method: 'POST', body: { text } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: postbackLogKeys.all }),
  });
}

import { type BotProtectionSettings, VALIDATION_MESSAGES, ZAsn } from '@switchyard/domain';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/client';
import { useSaveBotProtection } from '../api/useBotProtection';
import { showNotice } from '../components/feedback/showNotice';
import { useServerMessage } from '../components/feedback/useServerMessage';
import { errorText } from '../shared/errors/errorText';
import type { Network } from './parseNetworks';

/** A row's errors of the last save, under its ASN or its name. */
export interface NetworkErrors {
  asn?: string;
  name?: string;
}

/** What an added network is checked by before it joins the list: the server's own rule for an ASN. */
export function asnError(typed: number | string): string | null {
  if (String(typed).trim() === '') return VALIDATION_MESSAGES.invalidNumber;
  const parsed = ZAsn.safeParse(typeof typed === 'number' ? typed : Number(typed));
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? VALIDATION_MESSAGES.invalidNumber);
}

/**
 * The bot protection screen's state: the list as edited over the saved one, the errors of
 * the last save (the server's `datacenter_asns.N.asn` put back on row N of what was sent), save and
 * restore.
 */
export function useBotProtectionEditor(saved: BotProtectionSettings | undefined) {
  const { t } = useTranslation('resources');
  const translate = useServerMessage();
  const save = useSaveBotProtection();
  const [rows, setRows] = useState<Network[]>([]);
  const [changed, setChanged] = useState(false);
  const [errors, setErrors] = useState<Record<number, NetworkErrors>>({});
  const [formError, setFormError] = useState<string | null>(null);

  const reset = useCallback((settings: BotProtectionSettings | undefined) => {
    setRows(settings?.datacenter_asns ?? []);
    setChanged(false);
    setErrors({});
    setFormError(null);
  }, []);

  // What the server holds replaces the draft once loaded. A save resets from its answer itself: the
  // query's data keeps its identity when the answer equals it (restoring an unchanged shipped list).
  useEffect(() => {
    if (saved) reset(saved);
  }, [saved, reset]);

  const edit = useCallback((next: (current: Network[]) => Network[]) => {
    setRows(next);
    setChanged(true);
    // Row numbers move with an edit: the errors of the last save no longer point at the right rows.
    setErrors({});
    setFormError(null);
  }, []);

  /** Adds networks not in the list yet; answers how many were new. */
  const add = useCallback(
    (networks: Network[]): number => {
      const taken = new Set(rows.map((row) => row.asn));
      const fresh = networks.filter((network) => !taken.has(network.asn) && taken.add(network.asn));
      if (fresh.length > 0) edit((current) => [...current, ...fresh]);
      return fresh.length;
    },
    [rows, edit],
  );

  const remove = useCallback((asn: number) => edit((current) => current.filter((row) => row.asn !== asn)), [edit]);

  const discard = useCallback(() => reset(saved), [reset, saved]);

  const failed = (error: unknown) => {
    if (!(error instanceof ApiError) || error.status !== 400) {
      setFormError(errorText(t, error));
      return;
    }
    const placed: Record<number, NetworkErrors> = {};
    const unplaced: string[] = [];
    for (const [path, message] of Object.entries(error.fieldErrors())) {
      const match = /^datacenter_asns\.(\d+)\.(asn|name)$/.exec(path);
      if (match)
        placed[Number(match[1])] = { ...placed[Number(match[1])], [match[2] as 'asn' | 'name']: translate(message) };
      else unplaced.push(translate(message));
    }
    setErrors(placed);
    // A message for the whole list (too many networks) or none placed: said above the table.
    if (unplaced.length > 0) setFormError(unplaced.join(' '));
    else if (Object.keys(placed).length === 0) setFormError(translate(error.message));
  };

  const submit = () => {
    setFormError(null);
    save.mutate(
      { datacenter_asns: rows },
      {
        onSuccess: (answer) => {
          reset(answer);
          showNotice({ message: t('bot-protection.saved') });
        },
        onError: failed,
      },
    );
  };

  const restore = () => {
    setFormError(null);
    save.mutate(null, {
      onSuccess: (answer) => {
        reset(answer);
        showNotice({ message: t('bot-protection.restored') });
      },
      onError: failed,
    });
  };

  return { rows, changed, errors, formError, isSaving: save.isPending, add, remove, discard, submit, restore };
}

export type BotProtectionEditor = ReturnType<typeof useBotProtectionEditor>;

import { CURRENCIES } from '@switchyard/domain';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/client';
import type { CurrencyRate, CurrencyRates } from '../api/useCurrencyRates';
import { type CurrencyRateChange, useSaveCurrencyRates } from '../api/useSaveCurrencyRates';
import { showNotice } from '../components/feedback/showNotice';
import { useServerMessage } from '../components/feedback/useServerMessage';
import { errorText } from '../shared/errors/errorText';

/** The server refuses rates above this (no conversion may reach infinity). */
export const MAX_RATE = 1e9;

/** A rate as typed: Mantine's NumberInput gives a number, or a string while it is empty or partial. */
export type TypedRate = number | string;

/** A row of the table: a stored rate, or a currency added here and not saved yet. */
export interface RateRow {
  code: string;
  name: string;
  /** The stored rate; null for an added currency. */
  stored: CurrencyRate | null;
  value: TypedRate;
  changed: boolean;
}

export interface RateRowErrors {
  rate?: string;
  code?: string;
}

const CURRENCY_NAMES = new Map(CURRENCIES.map((currency) => [currency.Code, currency.Name]));

function asRate(value: TypedRate): number | null {
  const number = typeof value === 'number' ? value : Number(String(value).replace(',', '.'));
  return String(value).trim() === '' || !Number.isFinite(number) ? null : number;
}

/**
 * The currency rates screen's state (headless): the rates typed over the stored ones, the currencies
 * added, the errors of the last save (the client's, or the server's `rates.N.rate` put back on row N of
 * what was sent) and the save itself.
 */
export function useCurrencyRatesEditor(rates: CurrencyRates | undefined) {
  const { t } = useTranslation();
  const translate = useServerMessage();
  const save = useSaveCurrencyRates();
  const [typed, setTyped] = useState<Record<string, TypedRate>>({});
  const [added, setAdded] = useState<string[]>([]);
  const [errors, setErrors] = useState<Record<string, RateRowErrors>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const stored = rates?.list;

  const rows = useMemo<RateRow[]>(() => {
    const list: RateRow[] = (stored ?? []).map((rate) => {
      const value = typed[rate.code] ?? rate.rate;
      return { code: rate.code, name: rate.name, stored: rate, value, changed: asRate(value) !== rate.rate };
    });
    for (const code of added) {
      list.push({
        code,
        name: CURRENCY_NAMES.get(code) ?? code,
        stored: null,
        value: typed[code] ?? '',
        changed: true,
      });
    }
    return list;
  }, [stored, typed, added]);

  const changes = rows.filter((row) => row.changed);

  /** Currencies that have no rate yet, to add one. */
  const addable = useMemo(() => {
    const taken = new Set(rows.map((row) => row.code));
    return CURRENCIES.filter((currency) => !taken.has(currency.Code));
  }, [rows]);

  // A row's error goes once the row is edited.
  const clearError = useCallback(
    (code: string) =>
      setErrors((current) => {
        if (!(code in current)) return current;
        const { [code]: _cleared, ...rest } = current;
        return rest;
      }),
    [],
  );

  const setRate = useCallback(
    (code: string, value: TypedRate) => {
      setTyped((current) => ({ ...current, [code]: value }));
      clearError(code);
    },
    [clearError],
  );

  const addCurrency = useCallback((code: string, value: TypedRate) => {
    setAdded((current) => (current.includes(code) ? current : [...current, code]));
    setTyped((current) => ({ ...current, [code]: value }));
  }, []);

  const removeAdded = useCallback(
    (code: string) => {
      setAdded((current) => current.filter((other) => other !== code));
      setTyped(({ [code]: _removed, ...rest }) => rest);
      clearError(code);
    },
    [clearError],
  );

  const discard = useCallback(() => {
    setTyped({});
    setAdded([]);
    setErrors({});
    setFormError(null);
  }, []);

  const submit = () => {
    setFormError(null);
    const found: Record<string, RateRowErrors> = {};
    const sent: CurrencyRateChange[] = [];
    for (const row of changes) {
      const rate = asRate(row.value);
      if (rate === null || rate <= 0 || rate > MAX_RATE)
        found[row.code] = { rate: t('resources:currency-rates.errors.rate') };
      else sent.push({ code: row.code, rate });
    }
    setErrors(found);
    if (Object.keys(found).length > 0 || sent.length === 0) return;
    save.mutate(sent, {
      onSuccess: () => {
        discard();
        showNotice({ message: t('resources:currency-rates.saved', { count: sent.length }) });
      },
      onError: (error) => {
        if (!(error instanceof ApiError) || error.status !== 400) {
          setFormError(errorText(t, error));
          return;
        }
        const placed: Record<string, RateRowErrors> = {};
        const unplaced: string[] = [];
        for (const [path, message] of Object.entries(error.fieldErrors())) {
          const match = /^rates\.(\d+)\.(rate|code)$/.exec(path);
          const code = match ? sent[Number(match[1])]?.code : undefined;
          if (match && code) placed[code] = { ...placed[code], [match[2] as 'rate' | 'code']: translate(message) };
          else unplaced.push(translate(message));
        }
        setErrors(placed);
        if (unplaced.length > 0 || Object.keys(placed).length === 0) {
          setFormError([translate(error.message), ...unplaced].join(' '));
        }
      },
    });
  };

  return {
    rows,
    changes: changes.length,
    addable,
    errors,
    formError,
    isSaving: save.isPending,
    setRate,
    addCurrency,
    removeAdded,
    discard,
    submit,
  };
}

export type CurrencyRatesEditor = ReturnType<typeof useCurrencyRatesEditor>;

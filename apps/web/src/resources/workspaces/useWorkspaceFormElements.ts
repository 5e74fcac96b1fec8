import { useMemo } from 'react';
import { useCurrencyRates } from '../../api/useCurrencyRates';
import type { FormElement, FormOption } from '../../components/form/types';
import { useCurrencyName } from '../../shared/useCurrencyName';
import { useCurrencySelectOptions } from '../screens/referenceOptions';
import type { FormMode } from '../screens/resourceScreens';

/**
 * The workspace form: its name, its currency (conversions are converted to it, so only
 * currencies with a rate are offered, until the rates load), and on edit its postback key.
 */
export function useWorkspaceFormElements(mode: FormMode): readonly FormElement[] {
  const rates = useCurrencyRates();
  const allCurrencies = useCurrencySelectOptions();
  const currencyName = useCurrencyName();
  const currencyOptions = useMemo<FormOption[]>(
    () =>
      rates.data
        ? rates.data.list.map((rate) => ({
            value: rate.code,
            label: `${rate.code} — ${currencyName(rate.code, rate.name)}`,
          }))
        : allCurrencies,
    [rates.data, allCurrencies, currencyName],
  );
  return useMemo(
    () => [
      { name: 'name', type: 'input', label: 'resources:workspaces.fields.name', required: true },
      {
        name: 'currency',
        type: 'select',
        label: 'resources:workspaces.fields.currency',
        labelDescription: 'resources:workspaces.currencyHint',
        options: currencyOptions,
        value: 'USD',
        required: true,
      },
      ...(mode === 'edit'
        ? [
            {
              name: 'postback_key',
              type: 'postback-key',
              label: 'resources:workspaces.fields.postback_key',
              labelDescription: 'resources:workspaces.postbackKeyHint',
              input: { dir: 'ltr', styles: { input: { fontFamily: 'var(--mantine-font-family-monospace)' } } },
            } satisfies FormElement,
          ]
        : []),
    ],
    [mode, currencyOptions],
  );
}

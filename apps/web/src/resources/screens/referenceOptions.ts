import { COST_MODELS, CURRENCIES } from '@switchyard/domain';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrencyOptions } from '../../api/useCurrencyOptions';
import { useTimezoneOptions } from '../../api/useTimezoneOptions';
import type { FormOption } from '../../components/form/types';

// Options of the selects that do not come from a resource lookup. The server's lists (§7.4) come first;
// while one is empty (not loaded, or failed, §8) the built-in list stands in, so a stored value such as
// USD or UTC still shows.

const BUILT_IN_CURRENCIES: FormOption[] = CURRENCIES.map(({ Code, Name }) => ({ value: Code, label: Name }));

/** Currencies as "USD — US Dollar". */
export function useCurrencySelectOptions(): FormOption[] {
  const fromServer = useCurrencyOptions();
  return useMemo(
    () =>
      (fromServer.length > 0 ? fromServer : BUILT_IN_CURRENCIES).map((option) => ({
        value: option.value,
        label:
          option.label && option.label !== option.value ? `${option.value} — ${option.label}` : String(option.value),
      })),
    [fromServer],
  );
}

function intlTimezones(): FormOption[] {
  try {
    return Intl.supportedValuesOf('timeZone').map((zone) => ({ value: zone, label: zone.replaceAll('_', ' ') }));
  } catch {
    return [];
  }
}

const BUILT_IN_TIMEZONES = intlTimezones();

/** Timezones of the cap day, UTC first. */
export function useCapTimezoneOptions(): FormOption[] {
  const fromServer = useTimezoneOptions();
  return useMemo(() => {
    const zones = fromServer.length > 0 ? fromServer : BUILT_IN_TIMEZONES;
    return [{ value: 'UTC', label: 'UTC' }, ...zones.filter((zone) => zone.value !== 'UTC')];
  }, [fromServer]);
}

/** CPC, CPM, CPA and RevShare, each with what it means (for `radio-with-info`). */
export function useCostModelOptions(): FormOption[] {
  const { t } = useTranslation();
  return useMemo(
    () =>
      COST_MODELS.map((model) => ({
        value: model,
        label: t(`resources:costModels.${model}.label`),
        description: t(`resources:costModels.${model}.description`),
      })),
    [t],
  );
}

import { Button, Group, NumberInput, Select } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrencyName } from '../shared/useCurrencyName';
import type { CurrencyRatesEditor, TypedRate } from './useCurrencyRatesEditor';

/** A currency without a rate and its rate, added to the table to be saved with the other changes. */
export function AddCurrencyRate({ editor }: { editor: CurrencyRatesEditor }) {
  const { t } = useTranslation('resources');
  const [code, setCode] = useState<string | null>(null);
  const [rate, setRate] = useState<TypedRate>('');
  const currencyName = useCurrencyName();
  const add = () => {
    if (!code) return;
    editor.addCurrency(code, rate);
    setCode(null);
    setRate('');
  };
  return (
    <Group gap="sm" align="flex-end" wrap="wrap">
      <Select
        label={t('currency-rates.add.currency')}
        placeholder={t('currency-rates.add.currencyPlaceholder')}
        data={editor.addable.map((currency) => ({
          value: currency.Code,
          label: `${currency.Code} — ${currencyName(currency.Code, currency.Name)}`,
        }))}
        value={code}
        onChange={setCode}
        searchable
        nothingFoundMessage={t('form.noResults')}
        w={{ base: '100%', xs: 300 }}
      />
      <NumberInput
        label={t('currency-rates.add.rate')}
        value={rate}
        onChange={setRate}
        min={0}
        allowNegative={false}
        hideControls
        dir="ltr"
        w={{ base: '100%', xs: 160 }}
      />
      <Button variant="light" leftSection={<IconPlus size={16} aria-hidden />} onClick={add} disabled={!code}>
        {t('currency-rates.add.button')}
      </Button>
    </Group>
  );
}

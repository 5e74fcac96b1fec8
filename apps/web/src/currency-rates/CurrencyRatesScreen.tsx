import { Button, Group, Paper, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useCurrencyRates } from '../api/useCurrencyRates';
import { ScreenHeader } from '../components/breadcrumbs/ScreenHeader';
import { ErrorAlert, QueryStatus } from '../components/feedback/QueryStatus';
import { useCan } from '../shared/auth/useCan';
import { AddCurrencyRate } from './AddCurrencyRate';
import { CurrencyRatesTable } from './CurrencyRatesTable';
import { useCurrencyRatesEditor } from './useCurrencyRatesEditor';

/**
 * /admin/currency-rates: the rates conversions are converted by, units of each currency one
 * US dollar buys. The instance's, read and edited under the instance's settings permission.
 */
export function CurrencyRatesScreen() {
  const { t } = useTranslation();
  const canEdit = useCan('instance', 'settings', 'update');
  const rates = useCurrencyRates();
  const editor = useCurrencyRatesEditor(rates.data);
  const base = rates.data?.base ?? 'USD';

  return (
    <Stack gap="md">
      <ScreenHeader
        title={t('resources:currency-rates.title')}
        intro={t('resources:currency-rates.intro', { base, date: rates.data?.snapshot_date ?? '' })}
      />
      {editor.formError && <ErrorAlert>{editor.formError}</ErrorAlert>}
      <QueryStatus query={rates} loadingLabel={t('resources:list.loading')}>
        {() => (
          <>
            {canEdit && (
              <Paper withBorder p="md" radius="md">
                <Stack gap="xs">
                  <Title order={2} size="h5">
                    {t('resources:currency-rates.add.title')}
                  </Title>
                  <AddCurrencyRate editor={editor} />
                </Stack>
              </Paper>
            )}
            <Paper withBorder radius="md">
              <CurrencyRatesTable editor={editor} base={base} canEdit={canEdit} />
            </Paper>
            {canEdit && (
              // Stays in sight at the bottom of the window while a rate far down the table is edited.
              <Paper withBorder p="sm" radius="md" shadow="sm" pos="sticky" bottom={8} style={{ zIndex: 2 }}>
                <Group justify="flex-end" gap="sm">
                  <Button variant="default" onClick={editor.discard} disabled={editor.changes === 0 || editor.isSaving}>
                    {t('resources:currency-rates.discard')}
                  </Button>
                  <Button onClick={editor.submit} loading={editor.isSaving} disabled={editor.changes === 0}>
                    {editor.changes > 0
                      ? t('resources:currency-rates.saveCount', { count: editor.changes })
                      : t('resources:form.save')}
                  </Button>
                </Group>
              </Paper>
            )}
          </>
        )}
      </QueryStatus>
    </Stack>
  );
}

import { Alert, Button, Center, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useCurrencyRates } from '../api/useCurrencyRates';
import { ScreenBreadcrumbs } from '../components/breadcrumbs/ScreenBreadcrumbs';
import { useCan } from '../shared/auth/useCan';
import { errorText } from '../shared/errors/errorText';
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
      <ScreenBreadcrumbs title={t('resources:currency-rates.title')} />
      <div>
        <Title order={1} size="h2">
          {t('resources:currency-rates.title')}
        </Title>
        <Text c="dimmed" size="sm" maw={720}>
          {t('resources:currency-rates.intro', { base, date: rates.data?.snapshot_date ?? '' })}
        </Text>
      </div>
      {editor.formError && (
        <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden />} role="alert">
          {editor.formError}
        </Alert>
      )}
      {rates.isPending ? (
        <Center py="xl">
          <Loader aria-label={t('resources:list.loading')} />
        </Center>
      ) : rates.isError ? (
        <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden />} role="alert">
          {errorText(t, rates.error)}
        </Alert>
      ) : (
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
    </Stack>
  );
}

import { Paper, Stack, Text, Title } from '@mantine/core';
import type { RulePreviewAnswer } from '@switchyard/domain';
import { useTranslation } from 'react-i18next';
import { OutcomeTable } from './OutcomeTable';

/** What the form's rule would do now: nothing has been changed. */
export function RulePreview({ preview }: { preview: RulePreviewAnswer }) {
  const { t } = useTranslation('rules');
  return (
    <Paper withBorder p="md" data-testid="rule-preview">
      <Stack gap="xs">
        <Title order={2} size="h4">
          {t('preview.title')}
        </Title>
        <Text size="sm" c="dimmed" role="status">
          {t('preview.matched', { count: preview.matched })} {t('preview.nothingChanged')}
        </Text>
        {preview.rows.length > 0 && <OutcomeTable rows={preview.rows} preview caption={t('preview.title')} />}
      </Stack>
    </Paper>
  );
}

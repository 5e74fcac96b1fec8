import { List, Paper, Stack, Text, Title } from '@mantine/core';
import { BOT_REASONS } from '@switchyard/domain';
import { useTranslation } from 'react-i18next';

/** What makes a click a bot, in the order the checks run: the first that holds is the reason kept. */
export function BotReasonsExplained() {
  const { t } = useTranslation('resources');
  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="xs">
        <Title order={2} size="h5">
          {t('bot-protection.reasons.title')}
        </Title>
        <List type="ordered" size="sm" spacing={4}>
          {BOT_REASONS.map((reason) => (
            <List.Item key={reason}>
              <Text span size="sm" fw={600}>
                {t(`bot-protection.reasons.${reason}.name`)}
              </Text>
              {': '}
              {t(`bot-protection.reasons.${reason}.text`)}
            </List.Item>
          ))}
        </List>
        <Text size="sm" c="dimmed">
          {t('bot-protection.reasons.after')}
        </Text>
      </Stack>
    </Paper>
  );
}

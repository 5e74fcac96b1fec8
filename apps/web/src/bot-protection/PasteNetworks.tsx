import { Button, Group, Stack, Text, Textarea } from '@mantine/core';
import { IconClipboardList } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { parseNetworks } from './parseNetworks';
import type { BotProtectionEditor } from './useBotProtectionEditor';

/** Many networks at once, pasted one a line from a provider's list or a spreadsheet. */
export function PasteNetworks({ editor }: { editor: BotProtectionEditor }) {
  const { t } = useTranslation('resources');
  const [text, setText] = useState('');
  const [result, setResult] = useState<{ message: string; failed: boolean } | null>(null);
  const add = () => {
    const { networks, unreadLines } = parseNetworks(text);
    const added = editor.add(networks);
    const messages = [t('bot-protection.paste.added', { count: added })];
    if (networks.length > added) messages.push(t('bot-protection.paste.known', { count: networks.length - added }));
    if (unreadLines.length > 0) messages.push(t('bot-protection.paste.unread', { lines: unreadLines.join(', ') }));
    setResult({ message: messages.join(' '), failed: unreadLines.length > 0 });
    // Unread lines stay in the box to be corrected; read ones are in the list now.
    if (unreadLines.length === 0) setText('');
  };
  return (
    <Stack gap="xs">
      <Textarea
        label={t('bot-protection.paste.label')}
        description={t('bot-protection.paste.hint')}
        placeholder={'AS16509 Amazon\n14061,DigitalOcean'}
        value={text}
        onChange={(event) => {
          setText(event.currentTarget.value);
          setResult(null);
        }}
        rows={4}
        dir="ltr"
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
      />
      <Group gap="sm">
        <Button
          variant="light"
          leftSection={<IconClipboardList size={16} aria-hidden />}
          onClick={add}
          disabled={text.trim() === ''}
        >
          {t('bot-protection.paste.button')}
        </Button>
        {result && (
          <Text size="sm" c={result.failed ? 'red' : 'dimmed'} role="status">
            {result.message}
          </Text>
        )}
      </Group>
    </Stack>
  );
}

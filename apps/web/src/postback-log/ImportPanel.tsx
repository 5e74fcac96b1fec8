import { Alert, Button, Code, Group, Stack, Text, Textarea } from '@mantine/core';
import { MAX_IMPORT_LINES } from '@switchyard/domain';
import { IconAlertTriangle, IconFileImport } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/client';
import { useServerMessage } from '../components/feedback/useServerMessage';
import { ImportResults } from './ImportResults';
import { type ConversionImport, useConversionImport } from './useConversionImport';

const EXAMPLE = 'clickid,status,payout,txid,currency\nAbC123xyz,approved,12.50,order-981,EUR\nDeF456uvw,rejected';

/** Lines an operator typed or pasted: blank ones are not sent as lines. */
function countLines(text: string): number {
  return text.split(/\r?\n/).filter((line) => line.trim() !== '').length;
}

/**
 * The Import tab: conversions a network reported elsewhere (a CSV export, an email), pasted as
 * `clickid,status,payout,txid,currency` lines and taken as postbacks would be; the answer line by line.
 */
export function ImportPanel() {
  const { t, i18n } = useTranslation('postbacks');
  const translate = useServerMessage();
  const importLines = useConversionImport();
  const [text, setText] = useState('');
  const [result, setResult] = useState<ConversionImport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const lines = countLines(text);
  const tooMany = lines > MAX_IMPORT_LINES;

  const submit = () => {
    setError(null);
    setFormError(null);
    importLines.mutate(text, {
      onSuccess: (answer) => setResult(answer),
      onError: (failure) => {
        const onText = failure instanceof ApiError ? failure.fieldErrors().text : undefined;
        if (onText) setError(translate(onText));
        else setFormError(translate(failure.message));
      },
    });
  };

  /** Keeps the lines that were refused in the box, to correct them and import them again. */
  const keepRefused = () => {
    if (!result) return;
    setText(
      result.lines
        .filter((line) => line.status !== 200)
        .map((line) => line.text)
        .join('\n'),
    );
    setResult(null);
  };

  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed" maw={760}>
        {t('import.intro')}
      </Text>
      <Textarea
        label={t('import.label')}
        description={
          <>
            {t('import.format')} <Code dir="ltr">clickid,status,payout,txid,currency</Code>
          </>
        }
        placeholder={EXAMPLE}
        value={text}
        onChange={(event) => {
          setText(event.currentTarget.value);
          setError(null);
        }}
        error={
          error ?? (tooMany ? t('import.tooMany', { max: MAX_IMPORT_LINES.toLocaleString(i18n.language) }) : undefined)
        }
        rows={8}
        resize="vertical"
        dir="ltr"
        spellCheck={false}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        maw={760}
      />
      <Group gap="md">
        <Button
          leftSection={<IconFileImport size={16} aria-hidden />}
          onClick={submit}
          loading={importLines.isPending}
          disabled={lines === 0 || tooMany}
        >
          {t('import.button')}
        </Button>
        <Text size="sm" c="dimmed">
          {t('import.lineCount', { count: lines })}
        </Text>
      </Group>
      {formError && (
        <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden />} role="alert">
          {formError}
        </Alert>
      )}
      {result && <ImportResults result={result} onKeepRefused={keepRefused} />}
    </Stack>
  );
}

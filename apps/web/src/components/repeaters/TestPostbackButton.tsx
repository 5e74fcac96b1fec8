import { Alert, Badge, Button, Code, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, api } from '../../api/client';
import { errorText } from '../../shared/errors/errorText';
import { useServerMessage } from '../feedback/useServerMessage';

/** `POST /api/traffic-sources/test-postback`: the request sent and what came back. */
export interface TestPostbackResult {
  request: { method: string; url: string };
  response: { status: number; headers?: Record<string, string>; body: string } | null;
  /** No answer: a network error or the timeout. */
  error: string | null;
  duration_ms: number;
}

/**
 * "Send test postback": sends a traffic source's postback URL once, its macros filled with
 * sample values, and shows the request and the answer (status and body) in a dialog.
 */
export function TestPostbackButton({ url, disabled }: { url: string; disabled?: boolean }) {
  const { t } = useTranslation();
  const serverMessage = useServerMessage();
  const [opened, setOpened] = useState(false);
  const [sending, setSending] = useState(false);
  const [result, setResult] = useState<TestPostbackResult | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const key = (name: string) => `controls:repeaters.postbackEvents.testPostback.${name}`;

  async function send() {
    setOpened(true);
    setSending(true);
    setResult(null);
    setFailure(null);
    try {
      setResult(await api<TestPostbackResult>('traffic-sources/test-postback', { method: 'POST', body: { url } }));
    } catch (error) {
      // The URL refused (a private target, a macro in the host) says so on its field.
      const onField = error instanceof ApiError ? error.fieldErrors().url : undefined;
      setFailure(onField ? serverMessage(onField) : errorText(t, error));
    } finally {
      setSending(false);
    }
  }

  const response = result?.response;
  return (
    <>
      <Button size="xs" variant="light" onClick={send} loading={sending} disabled={disabled || url.trim() === ''}>
        {t(key('send'))}
      </Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title={t(key('title'))} size="lg">
        <Stack gap="sm">
          {sending && (
            <Group gap="xs">
              <Loader size="xs" />
              <Text size="sm">{t(key('sending'))}</Text>
            </Group>
          )}
          {failure && (
            <Alert color="red" role="alert">
              {failure}
            </Alert>
          )}
          {result && (
            <>
              <Text size="sm" fw={500}>
                {t(key('request'))}
              </Text>
              <Code block dir="ltr" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
                {`${result.request.method} ${result.request.url}`}
              </Code>
              <Text size="sm" fw={500}>
                {t(key('response'))}
              </Text>
              {response ? (
                <>
                  <Group gap="xs">
                    <Text size="sm">{t(key('status'))}</Text>
                    <Badge color={response.status >= 200 && response.status < 300 ? 'green' : 'red'} variant="light">
                      {response.status}
                    </Badge>
                    <Text size="xs" c="dimmed">
                      {t(key('duration'), { ms: result.duration_ms })}
                    </Text>
                  </Group>
                  <Code
                    block
                    dir="ltr"
                    aria-label={t(key('body'))}
                    style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all', maxHeight: 320, overflow: 'auto' }}
                  >
                    {response.body === '' ? t(key('emptyBody')) : response.body}
                  </Code>
                </>
              ) : (
                <Alert color="red" role="alert">
                  {t(key('noAnswer'), { error: result.error ?? '' })}
                </Alert>
              )}
            </>
          )}
        </Stack>
      </Modal>
    </>
  );
}

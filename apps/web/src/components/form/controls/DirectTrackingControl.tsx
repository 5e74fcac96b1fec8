import { Alert, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import { type ClickTokenAnswer, trackingScriptTag } from '@switchyard/domain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/client';
import { useResourceFormContext } from '../ResourceFormContext';
import type { FormControlProps } from '../types';
import { publicBaseOf } from './landerOfferUrl';

const TOKEN_PLACEHOLDER = 'YOUR_CLICK_TOKEN';

/** What a PHP lander runs before its page: the click recorded, the tracker's cookies passed on. */
export function serverSnippet(base: string, campaign: string, token: string): string {
  return `<?php
$answer = json_decode(file_get_contents('${base}/v1/clicks', false, stream_context_create(['http' => [
  'method' => 'POST',
  'header' => "Content-Type: application/json\\r\\nAuthorization: Bearer ${token}\\r\\n",
  'content' => json_encode([
    'campaign' => '${campaign}',
    'ip' => $_SERVER['REMOTE_ADDR'],
    'user_agent' => $_SERVER['HTTP_USER_AGENT'] ?? '',
    'referrer' => $_SERVER['HTTP_REFERER'] ?? '',
    'accept_language' => $_SERVER['HTTP_ACCEPT_LANGUAGE'] ?? '',
    'query' => $_GET,
    'cookie' => $_SERVER['HTTP_COOKIE'] ?? '',
  ]),
]])), true);
foreach ($answer['cookies'] ?? [] as $cookie) header('Set-Cookie: ' . $cookie, false);
$offerLink = $answer['offer_link']; // the offer, through the tracker
`;
}

function Snippet({ text, label }: { text: string; label: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap={4}>
      <Text size="sm">{label}</Text>
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <Code block dir="ltr" style={{ flex: 1, minInlineSize: 0, overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
          {text}
        </Code>
        <CopyButton value={text}>
          {({ copied, copy }) => (
            <Button size="xs" variant="light" onClick={copy}>
              {t(copied ? 'delivery:direct.copied' : 'delivery:direct.copy')}
            </Button>
          )}
        </CopyButton>
      </Group>
    </Stack>
  );
}

/**
 * `direct-tracking`: a direct campaign's two ways to record clicks without a redirect, ready to copy —
 * the tracking script's tag and a lander server's `POST /v1/clicks` — and a button that makes a new
 * click token (shown once: the server keeps only its hash). Nothing is stored: the schema drops it.
 */
export function DirectTrackingControl({ label }: FormControlProps) {
  const { t } = useTranslation();
  const { values, id } = useResourceFormContext();
  const [token, setToken] = useState<string | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  if (values.type !== 'direct') return null;
  if (id === undefined) {
    return (
      <Text size="sm" c="dimmed">
        {t('delivery:direct.saveFirst')}
      </Text>
    );
  }
  const base = publicBaseOf(values.campaign_url);
  const campaign = String(id);
  const origins = Array.isArray(values.allowed_origins) ? values.allowed_origins : [];
  const makeToken = () => {
    setFailed(null);
    api<ClickTokenAnswer>(`tracker/campaigns/${encodeURIComponent(campaign)}/click-token`, { method: 'POST' }).then(
      (answer) => setToken(answer.token),
      (error: unknown) => setFailed(error instanceof Error ? error.message : String(error)),
    );
  };
  return (
    <Stack gap="sm">
      <Text fw={500} size="sm">
        {label ?? t('delivery:direct.title')}
      </Text>
      {origins.length === 0 && (
        <Alert color="yellow" variant="light">
          {t('delivery:direct.noOrigins')}
        </Alert>
      )}
      <Snippet label={t('delivery:direct.script')} text={trackingScriptTag(base, campaign)} />
      <Snippet label={t('delivery:direct.server')} text={serverSnippet(base, campaign, token ?? TOKEN_PLACEHOLDER)} />
      {token && (
        <Alert color="blue" variant="light">
          {t('delivery:direct.tokenShown')}
        </Alert>
      )}
      {failed && (
        <Alert color="red" variant="light">
          {failed}
        </Alert>
      )}
      <Group>
        <Button size="xs" variant="default" onClick={makeToken}>
          {t('delivery:direct.newToken')}
        </Button>
      </Group>
    </Stack>
  );
}

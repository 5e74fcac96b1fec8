import { Chip, Code, Group, Input, Loader, Stack, Text } from '@mantine/core';
import { POSTBACK_FORMAT_NAMES, POSTBACK_FORMATS, type PostbackFormat, postbackUrlFor } from '@switchyard/domain';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePostbackBaseUrl } from '../../../shared/usePostbackBaseUrl';
import { useResourceFormContext } from '../ResourceFormContext';
import type { FormControlProps } from '../types';
import { CopyTextControl } from './CopyTextControl';

/**
 * `network-postback-url`: the address to give an affiliate network as copy-text, in the
 * parameter names of the tracker format chosen, each carrying the network's own macro typed in the same
 * form (`postback_params.*`), so it follows them before the save. The keyed base is the record's
 * `postback_url`; before the first save, the one of the user's workspace when it can be read. Nothing is
 * stored: the format is a way of reading the URL, and the server ignores `postback_url` in the body.
 */
export function NetworkPostbackUrlControl(props: FormControlProps) {
  const { t } = useTranslation();
  const { values } = useResourceFormContext();
  const [format, setFormat] = useState<PostbackFormat>('switchyard');
  const formatLabelId = useId();
  const saved = typeof props.value === 'string' && props.value ? props.value : null;
  const fallback = usePostbackBaseUrl({ enabled: saved === null });
  const base = saved ?? fallback.url;
  const url = base
    ? postbackUrlFor(format, base, {
        click_id: values['postback_params.click_id'],
        payout: values['postback_params.payout'],
        status: values['postback_params.status'],
        txid: values['postback_params.txid'],
      })
    : null;

  return (
    <Stack gap={6}>
      {url ? (
        <>
          <CopyTextControl {...props} value={url} />
          {/* A phone shows a few characters of the input: the whole address, wrapped, below it. */}
          <Code block dir="ltr" hiddenFrom="sm" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
            {url}
          </Code>
        </>
      ) : (
        <Input.Wrapper label={props.label} description={props.description}>
          {fallback.isPending ? (
            <Loader size="xs" mt={4} aria-label={t('resources:list.loading')} />
          ) : (
            <Text size="sm" c="dimmed" mt={4}>
              {t('resources:affiliate-networks.postbackUrlAfterSave')}
            </Text>
          )}
        </Input.Wrapper>
      )}
      <Group gap={6} align="center" role="radiogroup" aria-labelledby={formatLabelId}>
        <Text size="xs" c="dimmed" id={formatLabelId}>
          {t('resources:affiliate-networks.postbackFormat')}
        </Text>
        <Chip.Group value={format} onChange={(value) => setFormat(value as PostbackFormat)}>
          {POSTBACK_FORMATS.map((option) => (
            <Chip key={option} value={option} size="xs" variant="outline">
              {POSTBACK_FORMAT_NAMES[option]}
            </Chip>
          ))}
        </Chip.Group>
      </Group>
      {url && (
        <Text size="xs" c="dimmed">
          {format === 'switchyard'
            ? t('resources:affiliate-networks.postbackFormatHints.switchyard')
            : t('resources:affiliate-networks.postbackFormatHints.other', { format: POSTBACK_FORMAT_NAMES[format] })}
        </Text>
      )}
    </Stack>
  );
}

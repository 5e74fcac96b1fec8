import { Loader, Text, TextInput } from '@mantine/core';
import { postbackUrlFor } from '@switchyard/domain';
import { useTranslation } from 'react-i18next';
import { COPY_BUTTON_WIDTH, CopyValueButton } from '../components/copy/CopyValueButton';
import { usePostbackBaseUrl } from '../shared/usePostbackBaseUrl';

/**
 * The keyed address affiliate networks call (the keyless one is refused), the workspace's,
 * with the usual macro names: a network's own go where the braces are. Without the right to read a
 * workspace or a network, it says where the address is shown.
 */
export function PostbackUrl() {
  const { t } = useTranslation('postbacks');
  const base = usePostbackBaseUrl();
  if (base.isPending) return <Loader size="sm" aria-label={t('resources:list.loading')} />;
  if (!base.url) {
    return (
      <Text c="dimmed" size="sm" ta="center" maw={640}>
        {t('empty.postbackUrlElsewhere')}
      </Text>
    );
  }
  const url = postbackUrlFor('switchyard', base.url, {});
  return (
    <TextInput
      label={t('empty.postbackUrl')}
      value={url}
      readOnly
      dir="ltr"
      w="100%"
      maw={720}
      styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
      rightSectionWidth={COPY_BUTTON_WIDTH}
      rightSection={<CopyValueButton value={url} />}
    />
  );
}

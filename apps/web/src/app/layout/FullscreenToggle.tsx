import { ActionIcon } from '@mantine/core';
import { useFullscreenDocument } from '@mantine/hooks';
import { IconMaximize, IconMinimize } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

export function FullscreenToggle() {
  const { t } = useTranslation();
  const { fullscreen, toggle } = useFullscreenDocument();
  const Icon = fullscreen ? IconMinimize : IconMaximize;
  return (
    <ActionIcon
      variant="subtle"
      color="gray"
      size="lg"
      className="sy-topbar-action"
      visibleFrom="sm"
      aria-label={fullscreen ? t('topbar.exitFullscreen') : t('topbar.fullscreen')}
      aria-pressed={fullscreen}
      onClick={() => void toggle()}
    >
      <Icon size={20} stroke={1.6} />
    </ActionIcon>
  );
}

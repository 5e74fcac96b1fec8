import { Center, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Shown while the first screen's code loads. */
export function RouteFallback() {
  const { t } = useTranslation();
  return (
    <Center h="100dvh">
      <Loader aria-label={t('app.loading')} />
    </Center>
  );
}

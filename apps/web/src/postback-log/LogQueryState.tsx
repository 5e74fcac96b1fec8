import { Alert, Center, Loader } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PostbackLogEmptyState } from './PostbackLogEmptyState';

export interface LogQueryStateProps {
  isLoading: boolean;
  error: Error | null;
  empty: boolean;
  children: ReactNode;
}

/**
 * Loading, failed, empty or the page. A failed load says so (an operator checking for a postback must not
 * read "none yet" when the log could not be read); a failed refresh keeps the last page under the notice.
 */
export function LogQueryState({ isLoading, error, empty, children }: LogQueryStateProps) {
  const { t } = useTranslation('postbacks');
  if (isLoading) {
    return (
      <Center py="xl">
        <Loader aria-label={t('resources:list.loading')} />
      </Center>
    );
  }
  return (
    <>
      {error && (
        <Alert color="red" icon={<IconAlertTriangle aria-hidden />} title={t('error')}>
          {error.message}
        </Alert>
      )}
      {!error && empty ? <PostbackLogEmptyState /> : children}
    </>
  );
}

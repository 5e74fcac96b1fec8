import { Alert, Center, Loader } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../shared/errors/errorText';

/** A red alert read out at once: a form's or a request's error. */
export function ErrorAlert({ children }: { children: ReactNode }) {
  return (
    <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden />} role="alert">
      {children}
    </Alert>
  );
}

/**
 * What a screen shows of a query: a loader while it loads, its error when it failed, else `children`
 * with its data.
 */
export function QueryStatus<T>({
  query,
  loadingLabel,
  children,
}: {
  query: UseQueryResult<T>;
  loadingLabel: string;
  children: (data: T) => ReactNode;
}) {
  const { t } = useTranslation();
  if (query.isPending) {
    return (
      <Center py="xl">
        <Loader aria-label={loadingLabel} />
      </Center>
    );
  }
  if (query.isError) return <ErrorAlert>{errorText(t, query.error)}</ErrorAlert>;
  return <>{children(query.data)}</>;
}

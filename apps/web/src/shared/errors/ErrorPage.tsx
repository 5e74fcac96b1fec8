import { Button, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ServerErrorIllustration } from './ServerErrorIllustration';

export interface ErrorPageProps {
  status: number;
  /** What went wrong, already in the user's language; a default text fits the status otherwise. */
  message?: string;
}

/** §2.2, §8: status code, message and a way home. */
export function ErrorPage({ status, message }: ErrorPageProps) {
  const { t } = useTranslation();
  const notFound = status === 404;
  const title = notFound ? t('errors.pageNotFound') : t('errors.errorOccurred');
  const text =
    message ??
    (notFound ? t('errors.pageNotFoundText') : status === 403 ? t('errors.forbidden') : t('errors.internal'));

  return (
    <Stack align="center" justify="center" gap="sm" py={48} ta="center" className="sy-error-page">
      {status >= 500 && <ServerErrorIllustration />}
      <Text component="p" fz={72} fw={700} lh={1} c="brand" m={0} data-testid="error-status">
        {status}
      </Text>
      <Title order={1} size="h2">
        {title}
      </Title>
      {text !== title && (
        <Text c="dimmed" maw={520}>
          {text}
        </Text>
      )}
      <Button component={Link} to="/" mt="md">
        {t('errors.backToHome')}
      </Button>
    </Stack>
  );
}

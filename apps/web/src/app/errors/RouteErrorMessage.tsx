import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse } from 'react-router';
import { ErrorPage } from '../../shared/errors/ErrorPage';
import { errorStatus } from '../../shared/errors/errorStatus';
import { translateServerMessage } from '../../shared/errors/errorText';

/** The error page for one route error; the texts of the server are shown in the user's language. */
export function RouteErrorMessage({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const status = errorStatus(error);
  if (status === 404) return <ErrorPage status={404} />;

  let message: string | undefined;
  if (isRouteErrorResponse(error)) {
    const data = error.data as { message?: unknown } | string | null;
    message = typeof data === 'string' ? data : typeof data?.message === 'string' ? data.message : error.statusText;
  } else if (error instanceof Error) {
    message = error.message;
  }
  return <ErrorPage status={status} message={message ? translateServerMessage(t, message) : undefined} />;
}

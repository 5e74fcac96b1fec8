import { isRouteErrorResponse, useRouteError } from 'react-router';
import { isChunkLoadError, reloadOnce } from './chunkReload';
import { ErrorPageBoundary } from './ErrorPageBoundary';
import { RouteErrorMessage } from './RouteErrorMessage';

/** The router's error element (§2.2, §8). */
export function RouteErrorBoundary() {
  const error = useRouteError();
  if (isChunkLoadError(error) && reloadOnce()) return null;
  if (!isRouteErrorResponse(error)) console.error(error);

  return (
    <ErrorPageBoundary>
      <RouteErrorMessage error={error} />
    </ErrorPageBoundary>
  );
}

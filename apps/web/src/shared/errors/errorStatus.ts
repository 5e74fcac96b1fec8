import { isRouteErrorResponse } from 'react-router';
import { ApiError } from '../../api/client';

/** §8: the error's status code, or its response's, else 500. */
export function errorStatus(error: unknown): number {
  if (isRouteErrorResponse(error)) return error.status;
  if (error instanceof ApiError) return error.status;
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status >= 400 ? status : 500;
}

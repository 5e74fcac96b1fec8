import { ERROR_MESSAGES, VALIDATION_MESSAGES } from '@switchyard/domain';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, ServiceUnavailableError, TooManyRequestsError } from '../errors.js';

const MALFORMED_BODY_CODES = new Set(['FST_ERR_CTP_INVALID_JSON_BODY', 'FST_ERR_CTP_EMPTY_JSON_BODY']);

/** The one place errors become HTTP answers: `{ message, errors? }`. */
export function errorHandler(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error instanceof ApiError) {
    if (error instanceof TooManyRequestsError) reply.header('retry-after', String(error.retryAfterSeconds));
    if (error instanceof ServiceUnavailableError && error.retryAfterSeconds !== undefined) {
      reply.header('retry-after', String(error.retryAfterSeconds));
    }
    return reply.code(error.statusCode).send(error.body());
  }
  const { code, statusCode } = error as FastifyError;
  if (code && MALFORMED_BODY_CODES.has(code)) {
    return reply.code(400).send({ message: VALIDATION_MESSAGES.malformedJson });
  }
  // Fastify's own client errors (body too large, unsupported media type, …) keep their status.
  if (statusCode !== undefined && statusCode >= 400 && statusCode < 500) {
    return reply.code(statusCode).send({ message: error.message });
  }
  request.log.error({ err: error }, 'unexpected error');
  return reply.code(500).send({ message: ERROR_MESSAGES.internal });
}

import { ERROR_MESSAGES } from '@switchyard/domain';

/** An error the API answers with its own status and body; everything else is a 500. */
export abstract class ApiError extends Error {
  abstract readonly statusCode: number;
  readonly errors: Record<string, string[]> | undefined;

  constructor(message: string, errors?: Record<string, string[]>) {
    super(message);
    this.name = new.target.name;
    this.errors = errors;
  }

  /** What the API answers: the message, and the fields' errors when there are some. */
  body(): Record<string, unknown> {
    return this.errors ? { message: this.message, errors: this.errors } : { message: this.message };
  }
}

export class ValidationError extends ApiError {
  readonly statusCode = 400;
  constructor(errors: Record<string, string[]>, message: string = ERROR_MESSAGES.validation) {
    super(message, errors);
  }
}

export class UnauthorizedError extends ApiError {
  readonly statusCode = 401;
  constructor(message: string = ERROR_MESSAGES.unauthenticated) {
    super(message);
  }
}

export class ForbiddenError extends ApiError {
  readonly statusCode = 403;
  constructor(errors?: Record<string, string[]>, message: string = ERROR_MESSAGES.forbidden) {
    super(message, errors);
  }
}

export class NotFoundError extends ApiError {
  readonly statusCode = 404;
  constructor(message: string = ERROR_MESSAGES.notFound) {
    super(message);
  }
}

export class ConflictError extends ApiError {
  readonly statusCode = 409;
  constructor(message: string = ERROR_MESSAGES.conflict) {
    super(message);
  }
}

export class TooManyRequestsError extends ApiError {
  readonly statusCode = 429;
  constructor(
    readonly retryAfterSeconds: number,
    message: string = ERROR_MESSAGES.tooManyAttempts,
  ) {
    super(message);
  }
}

/**
 * An event (click, lead) that could not be kept: it is not answered as if it had been; or a report that
 * waited too long for the report engine, with when to ask again (Retry-After).
 */
export class ServiceUnavailableError extends ApiError {
  readonly statusCode = 503;
  constructor(
    message: string = ERROR_MESSAGES.unavailable,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** An ApiError as a worker thread sends it: a structured clone keeps the fields, not the class. */
export interface ApiErrorData {
  statusCode: number;
  message: string;
  errors: Record<string, string[]> | undefined;
}

export function apiErrorData(error: ApiError): ApiErrorData {
  return { statusCode: error.statusCode, message: error.message, errors: error.errors };
}

/** An ApiError thrown on a worker thread, answered as the thread's error would have been. */
export class ThreadApiError extends ApiError {
  readonly statusCode: number;
  constructor(data: ApiErrorData) {
    super(data.message, data.errors);
    this.statusCode = data.statusCode;
  }
}

// The document must tell the truth. When tests build the app, every JSON answer of an /api
// route is checked against the document's schema for its status (2xx: the route's answer; 4xx: the
// error body). A mismatch turns the answer into a 500 that says what did not match, so the test that
// made the request fails and shows why.
import type { FastifyInstance } from 'fastify';
import type { JsonSchema } from './openapi-routes.js';

type Validate = ((data: unknown) => boolean) & { errors?: unknown };

/** `/api/offers/:id` → `/api/offers/{id}`, as the document names paths. */
export function openApiPath(url: string): string {
  return url.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');
}

function isJson(type: unknown): boolean {
  return typeof type === 'string' && /^application\/(ld\+)?json\b/.test(type);
}

/**
 * The schema the document gives an answer of `method path` with `status`; undefined when none. Every 4xx
 * has the one error body, whether or not the route names that status.
 */
function schemaFor(document: JsonSchema, method: string, path: string, status: number): object | undefined {
  if (status >= 400) return (document.components as { schemas: { Error: object } }).schemas.Error;
  const paths = document.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>;
  const response = paths[path]?.[method.toLowerCase()]?.responses[String(status)] as
    | { content?: Record<string, { schema?: object }> }
    | undefined;
  return response?.content?.['application/json']?.schema;
}

export function checkAnswers(api: FastifyInstance, document: () => JsonSchema): void {
  // ajv is a development dependency: loaded only where answers are checked.
  let compile: Promise<(schema: object) => Validate> | null = null;
  const validators = new Map<string, Validate>();
  api.addHook('onSend', async (request, reply, payload) => {
    const status = reply.statusCode;
    const url = request.routeOptions.url;
    if (status < 200 || status >= 500 || !url || !isJson(reply.getHeader('content-type'))) return payload;
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    const key = `${request.method} ${openApiPath(url)} ${status}`;
    let validate = validators.get(key);
    if (!validate) {
      compile ??= import('ajv/dist/2020.js').then(({ default: Ajv2020 }) => {
        const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
        return (schema: object) => ajv.compile(schema) as Validate;
      });
      const schema = schemaFor(document(), request.method, openApiPath(url), status);
      validate = schema ? (await compile)(schema) : Object.assign(() => false, { errors: 'no schema for it' });
      validators.set(key, validate);
    }
    if (validate(JSON.parse(payload.toString()))) return payload;
    const message = `The answer of ${key} does not match /api/openapi.json`;
    const errors = { [key]: [JSON.stringify(validate.errors)] };
    console.error(message, errors[key], payload.toString().slice(0, 2000));
    reply.code(500);
    return JSON.stringify({ message, errors });
  });
}

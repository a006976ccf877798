import { createHandler, type HandlerOptions } from './handler.js';

/** The parts of an API Gateway HTTP API (payload format 2.0) or Lambda Function URL event read here. */
export interface LambdaHttpEvent {
  version?: string;
  rawPath?: string;
  rawQueryString?: string;
  cookies?: string[];
  headers?: Record<string, string | undefined>;
  requestContext?: { domainName?: string; http?: { method?: string; path?: string } };
  body?: string | null;
  isBase64Encoded?: boolean;
}

/** What Lambda turns back into an HTTP response (payload format 2.0). */
export interface LambdaHttpResult {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
  isBase64Encoded: boolean;
}

/**
 * An AWS Lambda handler for API Gateway HTTP APIs (payload format 2.0) and Lambda Function URLs:
 * the event becomes a Fetch `Request` for createHandler() (so the answers are the same: `POST
 * {"code": "..."}` -> the RunResult as JSON, 405/413/400/503/500 as documented there), and its
 * `Response` becomes `{ statusCode, headers, body, isBase64Encoded }`. A base64 body (binary media
 * types) is decoded first. An event of another shape answers 400 naming what was expected.
 * @throws {SbirtoolsValidationError} for bad limits or a bad preset, at creation.
 * @example
 * // index.mjs, handler string `index.handler`
 * export const handler = lambdaHandler({ sandbox: { dataPath: './data' } });
 */
export function lambdaHandler(
  options: HandlerOptions = {},
): (event: LambdaHttpEvent, context?: unknown) => Promise<LambdaHttpResult> {
  const handle = createHandler(options);
  return async (event) => {
    const method = event?.requestContext?.http?.method;
    if (typeof method !== 'string') {
      return json(400, {
        error: {
          type: 'VALIDATION_ERROR',
          message:
            'lambdaHandler() expects an API Gateway HTTP API (payload format 2.0) or Lambda Function URL event, with requestContext.http.method; ' +
            `got ${describe(event)}. For a REST API (payload 1.0), switch the integration to payload format 2.0.`,
        },
      });
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(event.headers ?? {}))
      if (typeof value === 'string') headers.set(name, value);
    if (event.cookies?.length) headers.set('cookie', event.cookies.join('; '));
    const host = event.requestContext?.domainName ?? headers.get('host') ?? 'lambda.local';
    const path = event.rawPath ?? event.requestContext?.http?.path ?? '/';
    const url = `https://${host}${path.startsWith('/') ? path : `/${path}`}${event.rawQueryString ? `?${event.rawQueryString}` : ''}`;
    const hasBody = method !== 'GET' && method !== 'HEAD' && typeof event.body === 'string';
    const body = hasBody
      ? event.isBase64Encoded
        ? Buffer.from(event.body as string, 'base64')
        : (event.body as string)
      : undefined;
    const response = await handle(new Request(url, { method, headers, ...(body !== undefined ? { body } : {}) }));
    return toResult(response);
  };
}

async function toResult(response: Response): Promise<LambdaHttpResult> {
  const headers = Object.fromEntries(response.headers);
  const type = response.headers.get('content-type') ?? '';
  const bytes = Buffer.from(await response.arrayBuffer());
  // JSON and text travel as text; anything else as base64, which Lambda decodes for the client
  const text = type === '' || /^(application\/json|text\/)/.test(type);
  return {
    statusCode: response.status,
    headers,
    body: text ? bytes.toString('utf8') : bytes.toString('base64'),
    isBase64Encoded: !text,
  };
}

function json(statusCode: number, body: unknown): LambdaHttpResult {
  return {
    statusCode,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
    body: JSON.stringify(body),
    isBase64Encoded: false,
  };
}

function describe(event: unknown): string {
  if (event === null || typeof event !== 'object') return `a ${event === null ? 'null' : typeof event}`;
  const keys = Object.keys(event).slice(0, 8);
  return keys.length ? `an object with keys ${keys.join(', ')}` : 'an empty object';
}

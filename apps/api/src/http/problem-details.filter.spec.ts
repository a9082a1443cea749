import type { ArgumentsHost } from '@nestjs/common';
import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  GoneException,
  HttpException,
  InternalServerErrorException,
  Logger,
  MethodNotAllowedException,
  NotFoundException,
  PayloadTooLargeException,
  ServiceUnavailableException,
  UnauthorizedException,
  UnprocessableEntityException,
  UnsupportedMediaTypeException,
} from '@nestjs/common';
import { DomainError } from '#core/errors/domain-error.js';
import { ERROR_CODES } from '#core/errors/error-code.js';
import { ServedContract } from '#contract/served-contract.js';
import { AnswerShaper } from '#contract/versions/answer-shaper.js';
import { ProblemDetailsFilter } from './problem-details.filter.js';
import { PROBLEM_TYPES } from '#http/problem.js';

function respond(exception: unknown, route?: { path: string }, complete = true) {
  const sent: { status?: number; type?: string; body?: string; headers: Record<string, string> } = { headers: {} };
  const res = {
    headersSent: false,
    setHeader: (name: string, value: string) => (sent.headers[name] = value),
    status(code: number) {
      sent.status = code;
      return this;
    },
    type(value: string) {
      sent.type = value;
      return this;
    },
    send(body: string) {
      sent.body = body;
      return this;
    },
  };
  const req = { method: 'GET', path: '/v1/api/me', requestId: 'req-123', route, complete };
  const host = { switchToHttp: () => ({ getRequest: () => req, getResponse: () => res }) } as unknown as ArgumentsHost;
  new ProblemDetailsFilter(new AnswerShaper(new ServedContract())).catch(exception, host);
  return { ...sent, json: JSON.parse(sent.body ?? '{}') as Record<string, unknown> };
}

describe('ProblemDetailsFilter', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('maps every problem code to a status', () => {
    for (const code of ERROR_CODES) expect(PROBLEM_TYPES[code].status).toBeGreaterThanOrEqual(400);
  });

  it('renders a domain error as problem+json with the request id and Retry-After', () => {
    const out = respond(new DomainError('IDEMPOTENCY_IN_PROGRESS', 'still running', [], 1));
    expect(out.status).toBe(409);
    expect(out.type).toBe('application/problem+json');
    expect(out.headers['Retry-After']).toBe('1');
    expect(out.json).toMatchObject({ status: 409, code: 'IDEMPOTENCY_IN_PROGRESS', requestId: 'req-123', detail: 'still running' });
  });

  it("answers pg's pool timeouts (no connection in time) 503 SERVICE_UNAVAILABLE with Retry-After, and nothing of the driver's message", () => {
    for (const message of ['timeout exceeded when trying to connect', 'Connection terminated due to connection timeout']) {
      const out = respond(new Error(message), { path: '/v1/api/me' });
      expect({ status: out.status, type: out.type, retryAfter: out.headers['Retry-After'] }).toEqual({
        status: 503,
        type: 'application/problem+json',
        retryAfter: '5',
      });
      expect(out.json).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE', requestId: 'req-123' });
      expect(out.body).not.toContain(message);
    }
    // The database refusing connections outright is an outage, not a busy pool.
    expect(respond(new Error('connect ECONNREFUSED 127.0.0.1:5432')).status).toBe(500);
  });

  it('closes the connection when it answers before the request has fully arrived (its body is never read)', () => {
    expect(respond(new DomainError('API_KEY_INVALID', 'Send a key.'), undefined, false).headers.Connection).toBe('close');
    expect(respond(new DomainError('API_KEY_INVALID', 'Send a key.'), undefined, true).headers.Connection).toBeUndefined();
  });

  it("turns Nest's unknown-route 404 into NOT_FOUND", () => {
    expect(respond(new NotFoundException()).json).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it("never shows an unexpected error's message, SQL or stack", () => {
    const error = new Error('duplicate key value violates unique constraint "x" SELECT * FROM clients WHERE phone = $1');
    const out = respond(error);
    expect(out.status).toBe(500);
    expect(out.json.code).toBe('INTERNAL');
    expect(out.body).not.toContain('SELECT');
    expect(out.body).not.toContain('constraint');
    expect(out.body).not.toContain('at ');
    expect(out.json.detail).toContain('req-123');
  });

  const matched = { path: '/v1/api/me' };

  it.each([
    ['BadRequest', new BadRequestException('The date range is empty.'), 400, 'VALIDATION_FAILED'],
    ['Unauthorized', new UnauthorizedException('Sign in again.'), 401, 'API_KEY_INVALID'],
    ['PaymentRequired', new HttpException('Upgrade the plan.', 402), 402, 'PLAN_INTEGRATIONS'],
    ['Forbidden', new ForbiddenException('Not for this client.'), 403, 'OPERATION_REFUSED'],
    ['NotFound', new NotFoundException('No such staff member.'), 404, 'NOT_FOUND'],
    ['Gone', new GoneException('It was removed.'), 404, 'NOT_FOUND'],
    ['Conflict', new ConflictException('Already done.'), 409, 'CONFLICT'],
    ['PayloadTooLarge', new PayloadTooLargeException('Too big.'), 413, 'PAYLOAD_TOO_LARGE'],
    ['UnsupportedMediaType', new UnsupportedMediaTypeException('JSON only.'), 415, 'UNSUPPORTED_MEDIA_TYPE'],
    ['UnprocessableEntity', new UnprocessableEntityException('Cannot do that.'), 400, 'VALIDATION_FAILED'],
    ['TooManyRequests', new HttpException('Slow down.', 429), 429, 'API_RATE_LIMIT'],
    ['ImATeapot (any other 4xx)', new HttpException('No coffee.', 418), 400, 'VALIDATION_FAILED'],
  ])('answers a thrown %s as problem+json with the code of its status and its message', (_, exception, status, code) => {
    const out = respond(exception, matched);
    expect(out.status).toBe(status);
    expect(out.type).toBe('application/problem+json');
    expect(out.json).toMatchObject({ status, code, detail: exception.message, requestId: 'req-123' });
    expect(PROBLEM_TYPES[code as keyof typeof PROBLEM_TYPES].status).toBe(status);
  });

  it('joins the messages of a BadRequestException that lists them', () => {
    const out = respond(new BadRequestException(['name is too short', 'phone is required']), matched);
    expect(out.json).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', detail: 'name is too short; phone is required' });
  });

  it("gives the code's title when the exception only repeats its status name", () => {
    expect(respond(new ForbiddenException(), matched).json).toMatchObject({
      code: 'OPERATION_REFUSED',
      detail: PROBLEM_TYPES.OPERATION_REFUSED.title,
    });
    expect(respond(new ConflictException(), matched).json).toMatchObject({
      status: 409,
      code: 'CONFLICT',
      detail: PROBLEM_TYPES.CONFLICT.title,
    });
  });

  it('names the path of a request no route matched, whatever Nest said, and of a bare 404 or 405', () => {
    const noOperation = 'No operation at GET /v1/api/me.';
    expect(respond(new NotFoundException('Cannot GET /v1/api/me')).json).toMatchObject({ code: 'NOT_FOUND', detail: noOperation });
    expect(respond(new NotFoundException(), matched).json).toMatchObject({ code: 'NOT_FOUND', detail: noOperation });
    expect(respond(new MethodNotAllowedException()).json).toMatchObject({ status: 404, code: 'NOT_FOUND', detail: noOperation });
  });

  it.each([
    ['InternalServerError', new InternalServerErrorException('pool exhausted at db.ts:12')],
    ['ServiceUnavailable', new ServiceUnavailableException('redis down at 10.0.0.3')],
  ])('answers a thrown %s as INTERNAL without its message', (_, exception) => {
    const out = respond(exception, matched);
    expect(out.status).toBe(500);
    expect(out.json.code).toBe('INTERNAL');
    expect(out.body).not.toContain(exception.message);
  });
});

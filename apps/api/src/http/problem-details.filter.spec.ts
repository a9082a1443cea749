import type { ArgumentsHost } from '@nestjs/common';
import { Logger, NotFoundException } from '@nestjs/common';
import { DomainError } from '#core/errors/domain-error.js';
import { ERROR_CODES } from '#core/errors/error-code.js';
import { ProblemDetailsFilter } from './problem-details.filter.js';
import { PROBLEM_TYPES } from './problem.js';

function respond(exception: unknown) {
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
  const req = { method: 'GET', path: '/v1/api/me', requestId: 'req-123' };
  const host = { switchToHttp: () => ({ getRequest: () => req, getResponse: () => res }) } as unknown as ArgumentsHost;
  new ProblemDetailsFilter().catch(exception, host);
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

  it('turns Nest\'s unknown-route 404 into NOT_FOUND', () => {
    expect(respond(new NotFoundException()).json).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('never shows an unexpected error\'s message, SQL or stack', () => {
    const error = new Error('duplicate key value violates unique constraint "x" SELECT * FROM clients WHERE phone = $1');
    const out = respond(error);
    expect(out.status).toBe(500);
    expect(out.json.code).toBe('INTERNAL');
    expect(out.body).not.toContain('SELECT');
    expect(out.body).not.toContain('constraint');
    expect(out.body).not.toContain('at ');
    expect(out.json.detail).toContain('req-123');
  });
});

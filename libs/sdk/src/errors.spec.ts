import { SchedulingApiError, isProblemCode, isSchedulingApiError } from './errors.js';
import { PROBLEM_CODES } from './generated/contract.js';

const error = (code: 'SLOT_TAKEN' | 'CLIENT_EXISTS') => new SchedulingApiError({ status: 409, code, title: 'Conflict', detail: 'd' });

describe('SchedulingApiError narrowing', () => {
  it('narrows by code with isSchedulingApiError and is()', () => {
    const taken: unknown = error('SLOT_TAKEN');
    expect(isSchedulingApiError(taken)).toBe(true);
    expect(isSchedulingApiError(taken, 'SLOT_TAKEN')).toBe(true);
    expect(isSchedulingApiError(taken, 'CLIENT_EXISTS', 'SLOT_UNAVAILABLE')).toBe(false);
    expect(isSchedulingApiError(new Error('x'))).toBe(false);
    if (isSchedulingApiError(taken, 'SLOT_TAKEN')) {
      // Narrowed at compile time: only 'SLOT_TAKEN' is assignable here.
      const code: 'SLOT_TAKEN' = taken.code;
      expect(code).toBe('SLOT_TAKEN');
    }
    expect(error('CLIENT_EXISTS').is('CLIENT_EXISTS')).toBe(true);
  });

  it('knows every code of the contract, the webhook ones included', () => {
    expect(PROBLEM_CODES).toEqual(
      expect.arrayContaining(['VALIDATION_FAILED', 'SLOT_TAKEN', 'WEBHOOK_URL_REFUSED', 'WEBHOOK_ENDPOINT_LIMIT']),
    );
    expect(isProblemCode('SLOT_TAKEN')).toBe(true);
    expect(isProblemCode('NOT_A_CODE')).toBe(false);
  });

  it('reads a problem answer with its field errors and Retry-After', () => {
    const response = new Response(null, { status: 400, headers: { 'Retry-After': '3', 'X-Request-Id': 'hdr' } });
    const parsed = SchedulingApiError.fromResponse(response, {
      type: 'https://docs.scheduling.example/problems/validation-failed',
      title: 'Validation failed',
      status: 400,
      code: 'VALIDATION_FAILED',
      detail: 'bad',
      requestId: 'body',
      errors: [{ path: '/query/phone', message: 'is not a valid phone number' }],
    });
    expect(parsed).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', requestId: 'body', retryAfter: 3 });
    expect(parsed.errors).toEqual([{ path: '/query/phone', message: 'is not a valid phone number' }]);
    expect(parsed.message).toBe('400 VALIDATION_FAILED: bad');
    expect(parsed.clientId).toBeNull();
  });

  it('keeps the existing client’s id of a CLIENT_EXISTS problem', () => {
    const problem = { title: 'Client exists', status: 409, code: 'CLIENT_EXISTS', detail: 'A client with this phone exists.' };
    const clientId = '01944b91-2a3b-7c4d-8e5f-6a7b8c9d0e1f';
    const withId = SchedulingApiError.fromResponse(new Response(null, { status: 409 }), { ...problem, clientId });
    expect(withId).toMatchObject({ code: 'CLIENT_EXISTS', clientId });
    // A key without clients.read gets the problem without it.
    expect(SchedulingApiError.fromResponse(new Response(null, { status: 409 }), problem).clientId).toBeNull();
  });
});

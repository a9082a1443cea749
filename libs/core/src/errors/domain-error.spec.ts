import { DomainError, notFound } from './domain-error.js';

describe('DomainError', () => {
  it('keeps its code, detail and name', () => {
    const error = notFound('The appointment');
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe('NOT_FOUND');
    expect(error.message).toBe('The appointment was not found in this business.');
    expect(error.name).toBe('DomainError');
  });

  it('captures no stack frames, and leaves the limit for other errors as it was', () => {
    const limit = Error.stackTraceLimit;
    const refusal = new DomainError('API_RATE_LIMIT', 'Too many requests.');
    expect(refusal.stack?.split('\n')).toHaveLength(1);
    expect(Error.stackTraceLimit).toBe(limit);
    expect(new Error('a fault').stack?.split('\n').length).toBeGreaterThan(1);
  });
});

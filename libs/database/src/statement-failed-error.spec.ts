import { StatementFailedError, sqlStateOf } from './statement-failed-error.js';
import { violatedConstraint } from './violated-constraint.js';

describe('StatementFailedError', () => {
  const driverError = Object.assign(new Error('duplicate key value violates unique constraint "clients_business_phone_key"'), {
    code: '23505',
    constraint: 'clients_business_phone_key',
    detail: 'Key (business_id, phone)=(…, +351912345678) already exists.',
  });

  it('carries the SQLSTATE and the violated constraint', () => {
    const error = new StatementFailedError('insert_client', driverError);
    expect(sqlStateOf(error)).toBe('23505');
    expect(violatedConstraint(error)).toBe('clients_business_phone_key');
    expect(error.message).toBe(
      'Statement insert_client failed: duplicate key value violates unique constraint "clients_business_phone_key"',
    );
  });

  it('keeps the row values of the driver error out of what a serialiser sees', () => {
    const error = new StatementFailedError('insert_client', driverError);
    expect(JSON.stringify({ ...error })).not.toContain('+351912345678');
    expect(error.cause).toBe(driverError);
  });

  it('is not a failed statement for any other error', () => {
    expect(sqlStateOf(new Error('x'))).toBeUndefined();
    expect(violatedConstraint(driverError)).toBeUndefined();
  });
});

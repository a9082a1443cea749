import { RequestMethod } from '@nestjs/common';
import { GUARDS_METADATA, HTTP_CODE_METADATA, INTERCEPTORS_METADATA, METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { OPERATIONS, type OperationFacts, type OperationId } from '#contract/generated/operations.js';
import { IdempotencyInterceptor } from './idempotency.interceptor.js';
import { LocationInterceptor } from './location.interceptor.js';
import { Operation } from './operation.decorator.js';
import { OperationInputGuard, OperationInputInterceptor } from './operation-input.interceptor.js';
import { OPERATION_FACTS, OPERATION_ID } from './operation-metadata.js';

/** A handler as a controller would declare it, decorated with @Operation(operationId) only. */
function decorated(operation: OperationId | OperationFacts): object {
  class Handlers {
    handle(): void {}
  }
  const descriptor = Object.getOwnPropertyDescriptor(Handlers.prototype, 'handle')!;
  Operation(operation)(Handlers.prototype, 'handle', descriptor);
  return descriptor.value as object;
}

describe('@Operation', () => {
  it.each(Object.keys(OPERATIONS) as OperationId[])('applies to %s what the generated facts say', (operationId) => {
    const facts = OPERATIONS[operationId];
    const handler = decorated(operationId);
    const interceptors = (Reflect.getMetadata(INTERCEPTORS_METADATA, handler) ?? []) as unknown[];
    const guards = (Reflect.getMetadata(GUARDS_METADATA, handler) ?? []) as unknown[];
    expect({
      method: Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod,
      path: Reflect.getMetadata(PATH_METADATA, handler) as string,
      status: Reflect.getMetadata(HTTP_CODE_METADATA, handler) as number,
      operation: Reflect.getMetadata(OPERATION_ID, handler) as string,
      idempotent: interceptors.includes(IdempotencyInterceptor),
      checksInput: facts.idempotent ? interceptors.includes(OperationInputInterceptor) : guards.includes(OperationInputGuard),
    }).toEqual({
      method: RequestMethod[facts.method.toUpperCase() as keyof typeof RequestMethod],
      path: facts.routePath,
      status: facts.successStatus,
      operation: operationId,
      idempotent: facts.idempotent,
      checksInput: facts.body || facts.queryParameters.length > 0 || facts.pathParameters.length > 0,
    });
  });

  it('opens the idempotency record before checking the input, so an invalid request stores nothing', () => {
    const interceptors = Reflect.getMetadata(INTERCEPTORS_METADATA, decorated('cancelAppointment')) as unknown[];
    expect(interceptors).toEqual([IdempotencyInterceptor, OperationInputInterceptor]);
  });

  it('sets the Location of a created resource outside the idempotency record, so a replay carries it too', () => {
    const interceptors = Reflect.getMetadata(INTERCEPTORS_METADATA, decorated('createAppointment')) as unknown[];
    expect(interceptors).toEqual([LocationInterceptor, IdempotencyInterceptor, OperationInputInterceptor]);
  });

  it('leaves a read without input free of interceptors', () => {
    expect(Reflect.getMetadata(INTERCEPTORS_METADATA, decorated('getMe'))).toBeUndefined();
    expect(Reflect.getMetadata(GUARDS_METADATA, decorated('getMe'))).toBeUndefined();
  });

  it('checks the input of an operation without an idempotency record by a guard, not an interceptor', () => {
    expect(Reflect.getMetadata(INTERCEPTORS_METADATA, decorated('getAppointment'))).toBeUndefined();
    expect(Reflect.getMetadata(GUARDS_METADATA, decorated('getAppointment'))).toEqual([OperationInputGuard]);
  });

  it("serves an extension's operation from the facts it is given, with no served contract read at start", () => {
    const facts: OperationFacts = { ...OPERATIONS.getAppointment, operationId: 'getThing', routePath: 'things/:id' };
    const handler = decorated(facts);
    expect(Reflect.getMetadata(PATH_METADATA, handler)).toBe('things/:id');
    expect(Reflect.getMetadata(OPERATION_ID, handler)).toBe('getThing');
    expect(Reflect.getMetadata(OPERATION_FACTS, handler)).toBe(facts);
    expect(Reflect.getMetadata(GUARDS_METADATA, handler)).toEqual([OperationInputGuard]);
  });

  it('stops the start on an id the core contract does not have', () => {
    expect(() => decorated('getThing' as OperationId)).toThrow("@Operation('getThing'): no such operation in the core contract");
  });
});

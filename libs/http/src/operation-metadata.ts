import type { ExecutionContext } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import type { OperationFacts } from '#contract/generated/operations.js';
import { servedOperation } from '#contract/served-contract.js';

/** Metadata key under which @Operation records the operationId a handler serves. */
export const OPERATION_ID = 'contractOperationId';

/**
 * Metadata key under which @Operation records that a handler waits on the network (a test ping, an
 * address check): its idempotent write then runs outside a transaction (docs/design-record.md#d24).
 */
export const WAITS_ON_NETWORK = 'waitsOnNetwork';

/** The operation a handler serves; undefined for routes outside the contract (documents, health). */
export function operationOf(reflector: Reflector, context: ExecutionContext): OperationFacts | undefined {
  const handler = context.getHandler();
  // Read once per handler (its metadata is fixed once mounted); null: a route outside the contract.
  let facts = operations.get(handler);
  if (facts === undefined) {
    const id = reflector.get<string | undefined>(OPERATION_ID, handler);
    facts = (id === undefined ? undefined : servedOperation(id)) ?? null;
    operations.set(handler, facts);
  }
  return facts ?? undefined;
}

const operations = new WeakMap<object, OperationFacts | null>();

/** Whether a request of the operation has anything to check before its handler runs. */
export const takesInput = (facts: OperationFacts): boolean =>
  facts.body || facts.queryParameters.length > 0 || facts.pathParameters.length > 0;

import type { ExecutionContext } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import type { OperationFacts } from '#contract/generated/operations.js';

/** Metadata key under which @Operation records the operationId a handler serves. */
export const OPERATION_ID = 'contractOperationId';

/** Metadata key under which @Operation records the facts of the operation a handler serves. */
export const OPERATION_FACTS = 'contractOperationFacts';

/**
 * Metadata key under which @Operation records that a handler waits on the network (a test ping, an
 * address check): its idempotent write then runs outside a transaction (docs/design-record.md#d24).
 */
export const WAITS_ON_NETWORK = 'waitsOnNetwork';

/** The operation a handler serves; undefined for routes outside the contract (documents, health). */
export function operationOf(reflector: Reflector, context: ExecutionContext): OperationFacts | undefined {
  return reflector.get<OperationFacts | undefined>(OPERATION_FACTS, context.getHandler());
}

/** Whether a request of the operation has anything to check before its handler runs. */
export const takesInput = (facts: OperationFacts): boolean =>
  facts.body || facts.queryParameters.length > 0 || facts.pathParameters.length > 0;

import type { ExecutionContext } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import { OPERATIONS, type OperationFacts, type OperationId } from '#contract/generated/operations.js';

/** Metadata key under which @Operation records the operationId a handler serves. */
export const OPERATION_ID = 'contractOperationId';

/** The operation a handler serves; undefined for routes outside the contract (documents, health). */
export function operationOf(reflector: Reflector, context: ExecutionContext): OperationFacts | undefined {
  const id = reflector.get<OperationId | undefined>(OPERATION_ID, context.getHandler());
  return id === undefined ? undefined : OPERATIONS[id];
}

/** Whether a request of the operation has anything to check before its handler runs. */
export const takesInput = (facts: OperationFacts): boolean =>
  facts.body || facts.queryParameters.length > 0 || facts.pathParameters.length > 0;

import { Injectable } from '@nestjs/common';
import type { RequestBody } from '#contract/contract-types.js';
import type { OperationId } from '#contract/generated/operations.js';
import { validationFailed } from '#core/errors/domain-error.js';
import { RequestValidator } from '#contract/request-validator.js';

/**
 * A console form's input checked by the API's own validator, compiled from the contract, as the
 * operation the form stands for (docs/design-record.md#d29): one set of input rules for the API and
 * the console, never a copy. A refusal is the API's VALIDATION_FAILED, with the same field paths.
 */
@Injectable()
export class ContractInput {
  constructor(private readonly validator: RequestValidator) {}

  body<O extends OperationId>(operationId: O, body: unknown): RequestBody<O> {
    const result = this.validator.validateBody<RequestBody<O>>(operationId, body);
    if (!result.ok) throw validationFailed(result.problems);
    return result.value;
  }
}

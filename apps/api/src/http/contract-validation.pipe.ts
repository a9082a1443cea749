import { Injectable, type PipeTransform } from '@nestjs/common';
import { validationFailed } from '#core/errors/domain-error.js';
import { RequestValidator } from '#contract/request-validator.js';

/** One validator per process: compiling the contract's schemas is done once. */
export const requestValidator = new RequestValidator();

/**
 * Validates a request part against the operation's schema in the contract. It runs as a pipe,
 * so after the guards: a caller without rights learns nothing about the input rules.
 */
@Injectable()
export class ContractValidationPipe implements PipeTransform {
  constructor(
    private readonly operationId: string,
    private readonly part: 'body' | 'query',
  ) {
    requestValidator.assertOperation(operationId);
  }

  transform(value: unknown): unknown {
    const result =
      this.part === 'body'
        ? requestValidator.validateBody(this.operationId, value)
        : requestValidator.validateQuery(this.operationId, (value ?? {}) as Record<string, unknown>);
    if (!result.ok) throw validationFailed(result.problems);
    return result.value;
  }
}

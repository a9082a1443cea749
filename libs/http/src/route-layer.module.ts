import { Global, Module } from '@nestjs/common';
import { RequestValidator } from '#contract/request-validator.js';
import { SecretAnswers } from '#contract/secret-answers.js';
import { ServedContract } from '#contract/served-contract.js';

/**
 * What @Operation's guard and interceptors inject, made from the application's served contract
 * (ServedContractModule): global, so the core's controllers and an extension's are served alike.
 */
@Global()
@Module({
  providers: [
    {
      // Every operation's input schemas, the enabled extensions' included, compiled at start rather
      // than on a first request; one that does not compile stops the start.
      provide: RequestValidator,
      inject: [ServedContract],
      useFactory: (contract: ServedContract): RequestValidator => {
        const validator = new RequestValidator(contract.document);
        validator.compileAll();
        return validator;
      },
    },
    {
      provide: SecretAnswers,
      inject: [ServedContract],
      useFactory: (contract: ServedContract): SecretAnswers => new SecretAnswers(contract.document),
    },
  ],
  exports: [RequestValidator, SecretAnswers],
})
export class RouteLayerModule {}

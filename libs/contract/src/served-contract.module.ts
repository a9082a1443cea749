import { Global, Module, type DynamicModule } from '@nestjs/common';
import { ServedContract, type ServedExtension } from './served-contract.js';
import { AnswerShaper } from './versions/answer-shaper.js';

/**
 * An application's served contract, made from the extensions its configuration enables (the app
 * passes extensions/index.ts's enableExtensions), and the shaping of answers and notices over it.
 * Global: the route layer, the notice services and an extension's module inject them as they are.
 */
@Global()
@Module({})
export class ServedContractModule {
  static forRoot(extensions: readonly ServedExtension[]): DynamicModule {
    const contract = new ServedContract(extensions);
    return {
      module: ServedContractModule,
      providers: [
        { provide: ServedContract, useValue: contract },
        { provide: AnswerShaper, useValue: new AnswerShaper(contract) },
      ],
      exports: [ServedContract, AnswerShaper],
    };
  }
}

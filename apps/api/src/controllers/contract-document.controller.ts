import { Controller, Get, Header } from '@nestjs/common';
import { loadServedContract } from '#contract/served-contract.js';
import { Public } from '../auth/route-access.decorators.js';

/** The contract itself, with the registered extensions' documents merged in, served without a key (docs/design-record.md#d1). */
@Controller()
@Public()
export class ContractDocumentController {
  @Get('openapi.json')
  json(): unknown {
    return loadServedContract().document;
  }

  @Get('openapi.yaml')
  @Header('Content-Type', 'application/yaml; charset=utf-8')
  yaml(): string {
    return loadServedContract().yaml;
  }
}

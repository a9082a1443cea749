import { Controller, Get, Header } from '@nestjs/common';
import { loadContract } from '#contract/openapi-document.js';
import { Public } from '../auth/route-access.decorators.js';

/** The contract itself, served without a key (D1). */
@Controller()
@Public()
export class ContractDocumentController {
  @Get('openapi.json')
  json(): unknown {
    return loadContract().document;
  }

  @Get('openapi.yaml')
  @Header('Content-Type', 'application/yaml; charset=utf-8')
  yaml(): string {
    return loadContract().yaml;
  }
}

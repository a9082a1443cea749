import { Controller, Get, Header, Req } from '@nestjs/common';
import type { Request } from 'express';
import { loadFrozenContract, loadServedContract, withServer } from '#contract/served-contract.js';
import { Public } from '../auth/route-access.decorators.js';
import { API_PREFIX } from '../http/api-prefix.js';
import { requestBaseUrl } from '../http/request-base-url.js';

/**
 * The contract, served without a key (docs/design-record.md#d1, docs/design-record.md#d13): 1.3.0
 * with the registered extensions' documents merged in, and the frozen 1.2.0 as published. Each
 * names as its server the address it was requested at.
 */
@Controller()
@Public()
export class ContractDocumentController {
  @Get('openapi.json')
  json(@Req() request: Request): unknown {
    return withServer(loadServedContract(), requestBaseUrl(request, API_PREFIX)).document;
  }

  @Get('openapi.yaml')
  @Header('Content-Type', 'application/yaml; charset=utf-8')
  yaml(@Req() request: Request): string {
    return withServer(loadServedContract(), requestBaseUrl(request, API_PREFIX)).yaml;
  }

  @Get('openapi/1.2.0.json')
  frozenJson(@Req() request: Request): unknown {
    return withServer(loadFrozenContract(), requestBaseUrl(request, API_PREFIX)).document;
  }

  @Get('openapi/1.2.0.yaml')
  @Header('Content-Type', 'application/yaml; charset=utf-8')
  frozenYaml(@Req() request: Request): string {
    return withServer(loadFrozenContract(), requestBaseUrl(request, API_PREFIX)).yaml;
  }
}

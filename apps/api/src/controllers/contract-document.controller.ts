import { Controller, Get, Header, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AppConfig } from '#config/app-config.js';
import { loadFrozenContract, loadServedContract, withServer } from '#contract/served-contract.js';
import { Public } from '../auth/route-access.decorators.js';
import { documentBaseUrl } from '../http/request-base-url.js';

/**
 * The contract, served without a key (docs/design-record.md#d1, docs/design-record.md#d13): 1.3.0
 * with the enabled extensions' documents merged in, and the frozen 1.2.0 as published. Each
 * names as its server PUBLIC_BASE_URL, else the address it was requested at (docs/design-record.md#d25).
 */
@Controller()
@Public()
export class ContractDocumentController {
  constructor(private readonly config: AppConfig) {}

  @Get('openapi.json')
  json(@Req() request: Request, @Res({ passthrough: true }) response: Response): unknown {
    return withServer(loadServedContract(), documentBaseUrl(request, response, this.config)).document;
  }

  @Get('openapi.yaml')
  @Header('Content-Type', 'application/yaml; charset=utf-8')
  yaml(@Req() request: Request, @Res({ passthrough: true }) response: Response): string {
    return withServer(loadServedContract(), documentBaseUrl(request, response, this.config)).yaml;
  }

  @Get('openapi/1.2.0.json')
  frozenJson(@Req() request: Request, @Res({ passthrough: true }) response: Response): unknown {
    return withServer(loadFrozenContract(), documentBaseUrl(request, response, this.config)).document;
  }

  @Get('openapi/1.2.0.yaml')
  @Header('Content-Type', 'application/yaml; charset=utf-8')
  frozenYaml(@Req() request: Request, @Res({ passthrough: true }) response: Response): string {
    return withServer(loadFrozenContract(), documentBaseUrl(request, response, this.config)).yaml;
  }
}

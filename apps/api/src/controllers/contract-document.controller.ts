import { Controller, Get, Header, Param, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AppConfig } from '#config/app-config.js';
import { ServedContract, withServer } from '#contract/served-contract.js';
import { API_VERSIONS, isApiVersion } from '#contract/versions/api-versions.js';
import { notFound } from '#core/errors/domain-error.js';
import { Public } from '../auth/route-access.decorators.js';
import { documentBaseUrl } from '../http/request-base-url.js';

/**
 * The contract, served without a key (docs/design-record.md#d1, #d13, #d22): the current version
 * with the enabled extensions' documents merged in, and every published version at
 * openapi/<version>.json|yaml, the earlier ones as published. Each names as its server
 * PUBLIC_BASE_URL, else the address it was requested at (docs/design-record.md#d25).
 */
@Controller()
@Public()
export class ContractDocumentController {
  constructor(
    private readonly config: AppConfig,
    private readonly contract: ServedContract,
  ) {}

  @Get('openapi.json')
  json(@Req() request: Request, @Res({ passthrough: true }) response: Response): unknown {
    return withServer(this.contract, documentBaseUrl(request, response, this.config)).document;
  }

  @Get('openapi.yaml')
  @Header('Content-Type', 'application/yaml; charset=utf-8')
  yaml(@Req() request: Request, @Res({ passthrough: true }) response: Response): string {
    return withServer(this.contract, documentBaseUrl(request, response, this.config)).yaml;
  }

  @Get('openapi/:version.json')
  versionJson(@Param('version') version: string, @Req() request: Request, @Res({ passthrough: true }) response: Response): unknown {
    return withServer(this.published(version), documentBaseUrl(request, response, this.config)).document;
  }

  @Get('openapi/:version.yaml')
  @Header('Content-Type', 'application/yaml; charset=utf-8')
  versionYaml(@Param('version') version: string, @Req() request: Request, @Res({ passthrough: true }) response: Response): string {
    return withServer(this.published(version), documentBaseUrl(request, response, this.config)).yaml;
  }

  private published(version: string): ReturnType<ServedContract['published']> {
    if (!isApiVersion(version)) throw notFound(`Version ${version} of the contract (published: ${API_VERSIONS.join(', ')})`);
    return this.contract.published(version);
  }
}

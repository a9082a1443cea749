import { Controller, Get, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { loadFrozenContract, loadServedContract } from '#contract/served-contract.js';
import { Public } from '../auth/route-access.decorators.js';
import { API_PREFIX } from '../http/api-prefix.js';

/** The paths a newcomer at `/` or `/v1/api` looks for; operations endpoints, not the contract's. */
export const API_INDEX_PATHS = ['/', API_PREFIX];

/** Where the reference and the documents are, for a client that asks the root instead of guessing. */
export interface ApiIndex {
  name: string;
  docs: string;
  openapi: string;
  versions: { version: string; openapi: string; yaml: string }[];
  health: string;
}

function apiIndex(): ApiIndex {
  const api = `/${API_PREFIX}`;
  const current = loadServedContract().document.info.version;
  const frozen = loadFrozenContract().document.info.version;
  return {
    name: 'Business Scheduling API',
    docs: '/docs',
    openapi: `${api}/openapi.json`,
    versions: [
      { version: current, openapi: `${api}/openapi.json`, yaml: `${api}/openapi.yaml` },
      { version: frozen, openapi: `${api}/openapi/${frozen}.json`, yaml: `${api}/openapi/${frozen}.yaml` },
    ],
    health: '/health/ready',
  };
}

/**
 * `GET /` and `GET /v1/api` answer where to go instead of 404: a browser is sent to the reference
 * page, any other client gets the links as JSON. Served without a key, outside the contract, like
 * `/docs` and `/health`.
 */
@Controller()
@Public()
export class ApiIndexController {
  private readonly index = apiIndex();

  @Get(API_INDEX_PATHS)
  answer(@Req() req: Request, @Res() res: Response): void {
    res.vary('Accept');
    if (req.accepts(['json', 'html']) === 'html') res.redirect(302, '/docs');
    else res.json(this.index);
  }
}

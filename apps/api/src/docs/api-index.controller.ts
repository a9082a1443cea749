import { Controller, Get, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { API_VERSIONS, CURRENT_API_VERSION } from '#contract/versions/api-versions.js';
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
  return {
    name: 'Business Scheduling API',
    docs: '/docs',
    openapi: `${api}/openapi.json`,
    // Newest first: the current version, then every earlier one still served (docs/design-record.md#d22).
    versions: [...API_VERSIONS].reverse().map((version) => ({
      version,
      openapi: version === CURRENT_API_VERSION ? `${api}/openapi.json` : `${api}/openapi/${version}.json`,
      yaml: version === CURRENT_API_VERSION ? `${api}/openapi.yaml` : `${api}/openapi/${version}.yaml`,
    })),
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

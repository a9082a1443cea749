import { createHash } from 'node:crypto';
import { Controller, Get, Header, NotFoundException, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Public } from '../auth/route-access.decorators.js';
import { findReferenceScript } from './reference-assets.js';

/** The page's one inline script; the policy below allows exactly it, by its digest. */
const BOOT_SCRIPT = `
      Scalar.createApiReference('#reference', {
        url: '/v1/api/openapi.json',
        withDefaultFonts: false,
        showDeveloperTools: 'never',
        agent: { disabled: true },
        mcp: { disabled: true },
      });
    `;

/**
 * The page's Content-Security-Policy: its own script file and the boot script above, the styles
 * the reference injects, and requests to this origin only (the document and "try it" calls).
 */
const PAGE_POLICY = [
  "default-src 'none'",
  `script-src 'self' 'sha256-${createHash('sha256').update(BOOT_SCRIPT).digest('base64')}'`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Business Scheduling API reference</title>
  </head>
  <body>
    <div id="reference"></div>
    <script src="/docs/reference.js"></script>
    <script>${BOOT_SCRIPT}</script>
  </body>
</html>
`;

/** The interactive reference of the served contract (docs/design-record.md#d1), without a key. */
@Controller('docs')
@Public()
export class DocsController {
  private readonly script = findReferenceScript();

  @Get()
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Content-Security-Policy', PAGE_POLICY)
  page(): string {
    return PAGE;
  }

  @Get('reference.js')
  @Header('Cache-Control', 'public, max-age=86400')
  reference(@Res() res: Response): void {
    if (!this.script) throw new NotFoundException();
    res.type('application/javascript').sendFile(this.script);
  }
}

import { Controller, Get, Header, NotFoundException, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Public } from '../auth/route-access.decorators.js';
import { findReferenceScript } from './reference-assets.js';

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
    <script>
      Scalar.createApiReference('#reference', {
        url: '/v1/api/openapi.json',
        withDefaultFonts: false,
        showDeveloperTools: 'never',
        agent: { disabled: true },
        mcp: { disabled: true },
      });
    </script>
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

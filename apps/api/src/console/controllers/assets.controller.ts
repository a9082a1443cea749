import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Controller, Get, Header } from '@nestjs/common';
import { Public } from '../../auth/route-access.decorators.js';

const ASSETS = join(dirname(fileURLToPath(import.meta.url)), '..', 'assets');
const asset = (name: string): string => readFileSync(join(ASSETS, name), 'utf8');

/** The console's stylesheet, script and icon: files, as its policy allows nothing inline; the same for everyone, so cached a while. */
@Controller('console/assets')
@Public()
export class ConsoleAssetsController {
  private readonly styles = asset('console.css');
  private readonly script = asset('console.js');
  private readonly icon = asset('favicon.svg');

  @Get('console.css')
  @Header('Content-Type', 'text/css; charset=utf-8')
  @Header('Cache-Control', 'public, max-age=300')
  css(): string {
    return this.styles;
  }

  @Get('console.js')
  @Header('Content-Type', 'text/javascript; charset=utf-8')
  @Header('Cache-Control', 'public, max-age=300')
  js(): string {
    return this.script;
  }

  @Get('favicon.svg')
  @Header('Content-Type', 'image/svg+xml')
  @Header('Cache-Control', 'public, max-age=86400')
  favicon(): string {
    return this.icon;
  }
}

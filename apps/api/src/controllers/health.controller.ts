import { Controller, Get } from '@nestjs/common';
import { Public } from '../auth/route-access.decorators.js';

/** Liveness for orchestrators: the process serves HTTP. Served without a key, outside /v1/api. */
@Controller('health')
@Public()
export class HealthController {
  @Get('live')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }
}

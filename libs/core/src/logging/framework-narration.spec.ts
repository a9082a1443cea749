import type { LoggerService } from '@nestjs/common';
import { FrameworkNarrationAtDebug } from './framework-narration.js';

function recorder(): { logger: LoggerService & { debug: NonNullable<LoggerService['debug']> }; calls: string[] } {
  const calls: string[] = [];
  const record =
    (level: string) =>
    (message: unknown, ...params: unknown[]) =>
      calls.push(`${level} ${String(params.at(-1))}: ${String(message)}`);
  return {
    calls,
    logger: {
      log: record('log'),
      error: record('error'),
      warn: record('warn'),
      debug: record('debug'),
      verbose: record('verbose'),
      fatal: record('fatal'),
    },
  };
}

describe('FrameworkNarrationAtDebug', () => {
  it("logs Nest's start-up narration at debug", () => {
    const { logger, calls } = recorder();
    const quiet = new FrameworkNarrationAtDebug(logger);
    quiet.log('Starting Nest application...', 'NestFactory');
    quiet.log('ApiModule dependencies initialized', 'InstanceLoader');
    quiet.log('MeController {/v1/api}:', 'RoutesResolver');
    quiet.log('Mapped {/v1/api/me, GET} route', 'RouterExplorer');
    quiet.log('Nest application successfully started', 'NestApplication');
    expect(calls).toEqual([
      'debug NestFactory: Starting Nest application...',
      'debug InstanceLoader: ApiModule dependencies initialized',
      'debug RoutesResolver: MeController {/v1/api}:',
      'debug RouterExplorer: Mapped {/v1/api/me, GET} route',
      'debug NestApplication: Nest application successfully started',
    ]);
  });

  it("keeps the application's own lines, and the framework's warnings and errors, at their level", () => {
    const { logger, calls } = recorder();
    const quiet = new FrameworkNarrationAtDebug(logger);
    quiet.log('Listening on http://localhost:3000/v1/api', 'Api');
    quiet.warn('IN_PROCESS_JOBS: no Redis', 'Api');
    quiet.error('Cannot map route', 'RouterExplorer');
    quiet.log('a line without a context');
    expect(calls).toEqual([
      'log Api: Listening on http://localhost:3000/v1/api',
      'warn Api: IN_PROCESS_JOBS: no Redis',
      'error RouterExplorer: Cannot map route',
      'log undefined: a line without a context',
    ]);
  });
});

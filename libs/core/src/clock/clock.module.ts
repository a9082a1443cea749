import { Module } from '@nestjs/common';
import { CLOCK, SYSTEM_CLOCK } from './clock.js';

/** The one provider of CLOCK: a test replaces it once (overrideProvider) for every module that reads the time. */
@Module({
  providers: [{ provide: CLOCK, useValue: SYSTEM_CLOCK }],
  exports: [CLOCK],
})
export class ClockModule {}

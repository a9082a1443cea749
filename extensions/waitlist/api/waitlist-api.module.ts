import { Module } from '@nestjs/common';
import { WaitlistModule } from '../waitlist.module.js';
import { WaitlistController } from './waitlist.controller.js';

/** What ApiModule imports for the waitlist: its routes, under the API's global guards and filter. */
@Module({ imports: [WaitlistModule], controllers: [WaitlistController] })
export class WaitlistApiModule {}

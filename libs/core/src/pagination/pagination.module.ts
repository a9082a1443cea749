import { Module } from '@nestjs/common';
import { AppConfig } from '#config/app-config.js';
import { CursorCodec } from './cursor-codec.js';

/** The cursor codec, keyed with CURSOR_SECRET. */
@Module({
  providers: [{ provide: CursorCodec, inject: [AppConfig], useFactory: (config: AppConfig) => new CursorCodec(config.CURSOR_SECRET) }],
  exports: [CursorCodec],
})
export class PaginationModule {}

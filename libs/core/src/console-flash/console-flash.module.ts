import { Module } from '@nestjs/common';
import { SecretsModule } from '../secrets/secrets.module.js';
import { ConsoleFlashesRepository } from './console-flashes.repository.js';
import { ConsoleFlashService } from './console-flash.service.js';

@Module({ imports: [SecretsModule], providers: [ConsoleFlashesRepository, ConsoleFlashService], exports: [ConsoleFlashService] })
export class ConsoleFlashModule {}

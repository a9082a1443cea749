import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ConfigError, loadConfig } from '#config/app-config.js';
import { WorkerModule } from './worker.module.js';

try {
  const config = loadConfig();
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config));
  // On SIGTERM Nest closes the BullMQ workers, which finish their current job first.
  app.enableShutdownHooks();
  new Logger('Worker').log('Worker started');
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { ConfigError, loadConfig } from '#config/app-config.js';
import { createApiApp, API_PREFIX } from './configure-app.js';

try {
  const config = loadConfig();
  const app = await createApiApp(config);
  await app.listen(config.PORT);
  new Logger('Api').log(`Listening on http://localhost:${config.PORT}/${API_PREFIX}`);
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

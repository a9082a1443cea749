// Copies the browser assets the API serves into dist/, so a production install without
// devDependencies (the Docker image) still has them.
import { copyFileSync, mkdirSync } from 'node:fs';

mkdirSync('dist/apps/api/assets', { recursive: true });
copyFileSync('node_modules/@scalar/api-reference/dist/browser/standalone.js', 'dist/apps/api/assets/scalar-api-reference.js');

// The console's stylesheet, script and icon, where its assets controller reads them (apps/api/src/console/controllers/assets.controller.ts).
mkdirSync('dist/apps/api/src/console/assets', { recursive: true });
for (const name of ['console.css', 'console.js', 'favicon.svg'])
  copyFileSync(`apps/api/src/console/assets/${name}`, `dist/apps/api/src/console/assets/${name}`);

// Copies the browser assets the API serves into dist/, so a production install without
// devDependencies (the Docker image) still has them.
import { copyFileSync, mkdirSync } from 'node:fs';

mkdirSync('dist/apps/api/assets', { recursive: true });
copyFileSync('node_modules/@scalar/api-reference/dist/browser/standalone.js', 'dist/apps/api/assets/scalar-api-reference.js');

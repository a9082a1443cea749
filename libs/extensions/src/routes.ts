// The route decorators a controller serves contract operations with: the core's controllers
// (apps/api) and an extension's use the same, so an extension's routes are declared, checked and
// answered exactly as the core's (docs/extending.md).
export { Operation } from '#http/operation.decorator.js';
export { CurrentKey, PathId, ValidBody, ValidQuery, type ListQuery } from '#http/operation-params.js';

// The route decorators an extension's controller uses: the API's own, so an extension's routes are
// declared, checked and answered exactly as the core's (docs/extending.md). This is the one file of
// a lib that reaches into apps/api; extensions import it instead of the app.
export { Operation } from '#api/http/operation.decorator.js';
export { CurrentKey, PathId, ValidBody, ValidQuery } from '#api/http/operation-params.js';

import type { components, operations } from './generated/openapi.js';

/** Shapes of the contract, generated from openapi/v1.3.0.yaml: a drift fails the build. */
export type Schemas = components['schemas'];
export type Operations = operations;
export type RequestBody<Op extends keyof operations> = operations[Op] extends {
  requestBody: { content: { 'application/json': infer Body } };
}
  ? Body
  : // An optional body (`requestBody.required: false`).
    operations[Op] extends { requestBody?: { content: { 'application/json': infer Body } } }
    ? Body | undefined
    : never;
export type QueryOf<Op extends keyof operations> = operations[Op] extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

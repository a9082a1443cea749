// The types openapi-typescript makes of openapi/v1.5.0.yaml are generated once, into the partner
// SDK, which is packed on its own and so cannot import them from here (scripts/generate-contract.mjs).
import type { components, operations } from '#sdk/generated/openapi.js';

/** Shapes of the contract, generated from openapi/v1.5.0.yaml: a drift fails the build. */
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

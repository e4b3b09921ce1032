/**
 * Reading the generated OpenAPI types (../api-types.ts, from openapi/openapi.yaml by `npm run api:types`)
 * by name: a route ends its JSON answer with `satisfies Answer<'operationId', status>`, so an answer
 * that drifts from the contract fails `tsc` (docs/decisions/070-one-api-contract.md).
 */
import type { components, operations } from '../api-types';

/** A schema of `components.schemas`. */
export type Schema<K extends keyof components['schemas']> = components['schemas'][K];

type Responses<O extends keyof operations> = operations[O]['responses'];

/** The JSON body operation `O` answers with status `S`. */
export type Answer<O extends keyof operations, S extends keyof Responses<O>> = Responses<O>[S] extends { content: { 'application/json': infer B } } ? B : never;

/** The JSON request body of operation `O`. */
export type RequestBody<O extends keyof operations> = NonNullable<operations[O]['requestBody']> extends { content: { 'application/json': infer B } } ? B : never;

import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { OpenApiDocument } from './openapi-document.js';

type AddFormats = (ajv: Ajv2020) => Ajv2020;
// ajv-formats is CommonJS: under ESM its function arrives as the default export's `default`.
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ?? addFormatsModule) as unknown as AddFormats;

export const DOCUMENT_ID = 'openapi';

/**
 * One Ajv (JSON Schema 2020-12) holding the whole document, so schemas are compiled from the
 * contract itself and their `#/components/...` references resolve inside it.
 */
export function createAjv(document: OpenApiDocument, options: { coerceTypes: boolean }): Ajv2020 {
  const ajv = createSchemaAjv(options);
  ajv.addSchema(document, DOCUMENT_ID);
  return ajv;
}

/** The Ajv setup of every JSON Schema the services validate with, without the contract in it. */
export function createSchemaAjv(options: { coerceTypes: boolean }): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: true,
    // parentSchema on errors lets the formatter find the branches of a failed oneOf/anyOf.
    verbose: true,
    // The document carries OpenAPI keywords (paths, example, x-…) that are not JSON Schema.
    strict: false,
    coerceTypes: options.coerceTypes,
    useDefaults: true,
  });
  addFormats(ajv);
  return ajv;
}

export function compileRef(ajv: Ajv2020, pointer: string): ValidateFunction {
  return ajv.compile({ $ref: `${DOCUMENT_ID}${pointer}` });
}

export function compileSchema(ajv: Ajv2020, schema: Record<string, unknown>): ValidateFunction {
  return ajv.compile(schema);
}

export type { ErrorObject, ValidateFunction };

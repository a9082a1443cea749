import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { createSchemaAjv, type ValidateFunction } from '#contract/schema-compiler.js';

/**
 * Holds tool results to the tools' own promise: a result that is not an error carries structured
 * content, and that content conforms to the outputSchema its tool listed (the contract's answer,
 * docs/design-record.md#d30). The tests of both transports run every result through it.
 */
export class StructuredOutputs {
  private readonly ajv = createSchemaAjv({ coerceTypes: false });
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(tools: readonly Tool[]) {
    for (const tool of tools) {
      if (!tool.outputSchema) throw new Error(`The tool ${tool.name} declares no outputSchema`);
      this.validators.set(tool.name, this.ajv.compile(tool.outputSchema));
    }
  }

  /** The result as it came, once its structured content is found to conform; throws naming what does not. */
  check(toolName: string, result: CallToolResult): CallToolResult {
    if (result.isError) return result;
    const validate = this.validators.get(toolName);
    if (!validate) throw new Error(`No outputSchema for the tool ${toolName}`);
    if (result.structuredContent === undefined) throw new Error(`${toolName} answered without structured content`);
    // On a copy: the Ajv setup fills in defaults.
    if (!validate(structuredClone(result.structuredContent))) {
      throw new Error(`${toolName}'s structured content breaks its outputSchema: ${this.ajv.errorsText(validate.errors)}`);
    }
    return result;
  }
}

import { createSchemaAjv, DOCUMENT_ID, type ValidateFunction } from '#contract/schema-compiler.js';
import { ValidationErrorFormatter, type FieldProblem } from '#contract/validation-errors.js';
import type { SchedulingTool } from './tools.js';

/**
 * Checks a tool call's arguments against the tool's input schema (read from the contract, so the
 * same rules the API applies), before anything is sent to the API: a model's mistake gets an answer
 * that names the argument at fault, and a call the contract refuses costs no request with the key.
 * Every schema is compiled at start, so a schema Ajv cannot compile stops the server there.
 */
export class ToolInputValidator {
  private readonly ajv = createSchemaAjv({ coerceTypes: false });
  private readonly formatter = new ValidationErrorFormatter(this.ajv, DOCUMENT_ID);
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(tools: readonly SchedulingTool[]) {
    for (const tool of tools) this.validators.set(tool.name, this.ajv.compile(tool.inputSchema));
  }

  /** What is wrong with the arguments, one problem per argument at fault; none when they conform. */
  problems(toolName: string, input: Record<string, unknown>): FieldProblem[] {
    const validate = this.validators.get(toolName);
    if (!validate) throw new Error(`No input schema for the tool ${toolName}`);
    // On a copy: the Ajv setup fills in defaults, and the API is to get the arguments as given.
    const copy = structuredClone(input);
    return validate(copy) ? [] : this.formatter.format(validate.errors, copy);
  }
}

/** "INVALID_INPUT: …" naming each argument at fault (a nested one as `client.phone`). */
export function describeInvalidInput(toolName: string, problems: readonly FieldProblem[]): string {
  const lines = problems.map(({ path, message }) => {
    const name = path
      .slice(1)
      .split('/')
      .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'))
      .join('.');
    return `\n- ${name === '' ? 'the arguments' : name}: ${message}`;
  });
  return `INVALID_INPUT: the arguments of ${toolName} do not match its input schema; nothing was sent to the API.${lines.join('')}`;
}

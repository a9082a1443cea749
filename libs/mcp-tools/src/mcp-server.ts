import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Scope } from '#contract/generated/operations.js';
import { CONTRACT_VERSION, isSchedulingApiError, type SchedulingClient } from '#sdk/index.js';
import type { ContractSchemas } from './contract-schemas.js';
import { describeInvalidInput, ToolInputValidator } from './tool-input-validator.js';
import { schedulingTools, scopeOfTool, ToolInputError, type SchedulingTool, type ToolContext } from './tools.js';

/** What the server tells a client it is for, and how its tools go together. */
export const SERVER_INSTRUCTIONS = [
  'Books, moves and cancels appointments of one business (a salon, a clinic) through its Business Scheduling API, and looks up its services, staff, free times and clients.',
  'To book: list_services (and list_staff if the client wants someone in particular) → find_free_times for the service → find_client by phone or e-mail, or create_client with the client’s consent → book_appointment with the client’s id and a start find_free_times gave.',
  'CLIENT_EXISTS (from create_client or a booking with a new client) names the existing client’s id: book with client: { id } rather than creating the client again.',
  'Ask the person to confirm before cancel_appointment, reschedule_appointment or update_appointment: they change or end what exists, and a cancellation or a move e-mails the client.',
  'Give every write an idempotencyKey (a UUID) and send the same one when you retry it after a time-out or an error without an answer: the write then happens once, and the answer says it was a replay.',
  'Times are instants in UTC (…Z); the answers also give them in the business’s time zone. Tool errors start with the API’s problem code (SLOT_TAKEN, VALIDATION_FAILED, …).',
].join('\n');

/**
 * The tools made once per process (their schemas read from the contract, their input validators
 * compiled): the remote server makes a server per request (docs/design-record.md#d30), and
 * compiling every schema per request would cost more than the call.
 */
export class SchedulingToolbox {
  readonly tools: ReadonlyMap<string, SchedulingTool>;
  readonly inputs: ToolInputValidator;
  /** The tools as tools/list answers them, the same for every server. */
  readonly listed: Tool[];

  constructor(schemas: ContractSchemas) {
    this.tools = new Map(schedulingTools(schemas).map((tool) => [tool.name, tool]));
    this.inputs = new ToolInputValidator([...this.tools.values()]);
    this.listed = [...this.tools.values()].map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: tool.inputSchema as Tool['inputSchema'],
      outputSchema: tool.outputSchema as Tool['outputSchema'],
      annotations: { title: tool.title, ...tool.annotations },
    }));
  }

  /** The scope a tool needs (its operation's, from the contract); undefined for a tool that does not exist. */
  scopeOf(name: string): Scope | null | undefined {
    const tool = this.tools.get(name);
    return tool ? scopeOfTool(tool) : undefined;
  }
}

/**
 * The MCP server over one SDK client. It uses the SDK's low-level `Server` rather than `McpServer`
 * on purpose: McpServer takes tool inputs as zod shapes, while ours are the contract's own JSON
 * Schemas (ContractSchemas), which the low-level server hands to clients as they are.
 */
export function createMcpServer(
  toolbox: SchedulingToolbox,
  sdk: SchedulingClient,
  /** Where the business's time zone is read; default GET /me once for the server. */
  timeZone: (signal: AbortSignal) => Promise<string | null> = businessTimeZone(sdk),
): Server {
  const server = new Server(
    { name: 'scheduling', title: 'Business Scheduling', version: CONTRACT_VERSION },
    { capabilities: { tools: {} }, instructions: SERVER_INSTRUCTIONS },
  );

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolbox.listed }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const tool = toolbox.tools.get(request.params.name);
    if (!tool) return failure(`Unknown tool ${request.params.name}; the tools are ${[...toolbox.tools.keys()].join(', ')}.`);
    const input = request.params.arguments ?? {};
    const problems = toolbox.inputs.problems(tool.name, input);
    if (problems.length > 0) return failure(describeInvalidInput(tool.name, problems));
    try {
      const context: ToolContext = { sdk, signal: extra.signal, timeZone: () => timeZone(extra.signal) };
      const output = await tool.run(input, context);
      return { content: [{ type: 'text', text: output.text }], structuredContent: output.structured };
    } catch (error) {
      return failure(describeFailure(error));
    }
  });
  return server;
}

/**
 * The business's time zone from GET /me (which any caller may read), asked once and kept while it
 * is known; a failure is not kept, and leaves the times in UTC alone.
 */
export function businessTimeZone(sdk: SchedulingClient): (signal: AbortSignal) => Promise<string | null> {
  let known: string | undefined;
  return async (signal) => {
    if (known !== undefined) return known;
    try {
      known = (await sdk.me({ signal })).business.timezone;
      return known;
    } catch {
      return null;
    }
  };
}

function failure(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/**
 * An API problem names its code first ("SLOT_TAKEN: …"), then the fields at fault, or for
 * CLIENT_EXISTS the existing client's id, so an agent can act on it (book that client).
 */
export function describeFailure(error: unknown): string {
  if (isSchedulingApiError(error)) {
    // The detail often names the one field already; list the others.
    const fields = error.errors
      .filter((field) => !error.detail.includes(`${field.path}: ${field.message}`))
      .map((field) => `\n- ${field.path}: ${field.message}`)
      .join('');
    const existing = error.clientId
      ? `\nThe existing client's id is ${error.clientId}: book it with client: { id: "${error.clientId}" }.`
      : '';
    return `${error.code}: ${error.detail}${fields}${existing}${error.requestId ? `\n(request ${error.requestId})` : ''}`;
  }
  if (error instanceof ToolInputError) return `INVALID_INPUT: ${error.message}`;
  return `API_UNREACHABLE: ${error instanceof Error ? error.message : String(error)}`;
}

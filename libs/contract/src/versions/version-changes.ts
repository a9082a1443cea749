import type { ApiVersion } from './api-versions.js';

/**
 * One change of an answer's or a notice's shape between two published versions
 * (docs/design-record.md#d22): what a version added to which schemas of its document, and how an
 * instance of such a schema is shown to a caller pinned to the version before. Every shape change
 * is declared here, once; the answer shaper applies them, and a property test proves that
 * every operation's and notice's answer, shaped for each version, validates against that
 * version's document (test/integration/contract/version-shaping.int-spec.ts).
 */
export interface VersionChange {
  /** A short name, unique, that says what changed (kebab-case). */
  readonly name: string;
  /** The version that made the change: callers pinned to an earlier one get `down`'s result. */
  readonly version: ApiVersion;
  readonly description: string;
  /** The component schemas (`#/components/schemas/<name>`) whose instances the change touches. */
  readonly schemas: readonly string[];
  /**
   * The instance as the version before `version` shows it, given as the later one has it (a
   * fresh copy the function may change). `undefined` leaves an array's item out altogether.
   */
  down(instance: Record<string, unknown>): Record<string, unknown> | undefined;
}

/** Removes the given fields: the down-conversion of a change that only adds fields. */
export function withoutFields(...fields: readonly string[]): VersionChange['down'] {
  return (instance) => {
    for (const field of fields) delete instance[field];
    return instance;
  };
}

/**
 * Every declared change, oldest version first. 1.3.0 changed no answer of 1.2.0 (D13).
 *
 * Not declared, on purpose: 1.4.0's 503 SERVICE_UNAVAILABLE (ServiceUnavailableProblem, no database
 * connection in time, docs/design-record.md#d24). Callers pinned to 1.2.0 or 1.3.0 have received
 * it since before 1.4.0, as docs/error-codes.md documents it, and no down-conversion could tell
 * them what it means: their documents have neither the status nor a code that says "retry after
 * Retry-After" (INTERNAL would say "a bug"). Their answer is left as it was; 1.4.0's document
 * lists it under "What changed, exactly".
 */
export const VERSION_CHANGES: readonly VersionChange[] = [
  {
    name: 'appointment-rescheduled-to-and-metadata',
    version: '1.4.0',
    description: 'An appointment carries rescheduledToId (the appointment that replaced it) and metadata (docs/design-record.md#d23).',
    schemas: ['Appointment'],
    down: withoutFields('rescheduledToId', 'metadata'),
  },
  {
    name: 'client-metadata',
    version: '1.4.0',
    description: 'A client carries metadata (docs/design-record.md#d23).',
    schemas: ['Client'],
    down: withoutFields('metadata'),
  },
  {
    name: 'key-mode-and-version',
    version: '1.4.0',
    description: "GET /me's key carries its mode (live or test) and the version it is pinned to (docs/design-record.md#d23).",
    schemas: ['ApiKey'],
    down: withoutFields('mode', 'apiVersion'),
  },
  {
    name: 'notice-mode',
    version: '1.4.0',
    description: 'A notice, and the event log that shows it as delivered, carries mode: live or test (docs/design-record.md#d23).',
    schemas: ['Notice', 'TestNotice', 'Event'],
    down: withoutFields('mode'),
  },
  {
    name: 'webhook-endpoint-version',
    version: '1.4.0',
    description: 'A webhook endpoint shows the version its notices are shaped for (docs/design-record.md#d22).',
    schemas: ['WebhookEndpoint', 'CreatedWebhookEndpoint'],
    down: withoutFields('apiVersion'),
  },
  {
    name: 'client-exists-client-id',
    version: '1.4.0',
    description: "A 409 CLIENT_EXISTS carries the existing client's clientId when the key holds clients.read (docs/design-record.md#d23).",
    schemas: ['Problem'],
    down: withoutFields('clientId'),
  },
  {
    name: 'delivery-schedule',
    version: '1.4.0',
    description: 'A delivery attempt says what follows it: nextAttemptAt and final (docs/design-record.md#d23).',
    schemas: ['WebhookDelivery'],
    down: withoutFields('nextAttemptAt', 'final'),
  },
  {
    name: 'test-ping-deliveries',
    version: '1.4.0',
    description: 'Test pings are in the delivery log (as webhook.test), left out before 1.4.0 (docs/design-record.md#d23).',
    schemas: ['WebhookDelivery'],
    down: (instance) => (instance.eventType === 'webhook.test' ? undefined : instance),
  },
  {
    name: 'me-authentication',
    version: '1.5.0',
    description:
      "GET /me says how the request was authenticated: an API key, or a partner app's OAuth access token (docs/design-record.md#d30).",
    schemas: ['Me'],
    down: withoutFields('authentication'),
  },
  {
    name: 'pinned-to-1.5.0',
    version: '1.5.0',
    description:
      "A key's or an endpoint's apiVersion 1.5.0 reads 1.4.0 in an answer shaped for 1.4.0, whose ApiVersion lists no later " +
      'version (strict clients would refuse the whole answer); earlier shapes are reached by the changes before (docs/design-record.md#d22).',
    schemas: ['ApiKey', 'WebhookEndpoint', 'CreatedWebhookEndpoint'],
    down: (instance) => (instance.apiVersion === '1.5.0' ? { ...instance, apiVersion: '1.4.0' } : instance),
  },
];

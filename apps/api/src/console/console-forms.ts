import { DomainError } from '#core/errors/domain-error.js';
import type { FieldProblem } from '#contract/validation-errors.js';
import { html, type SafeHtml } from './html.js';
import type { MessageKey } from './i18n/messages.en.js';
import type { Translator } from './i18n/translator.js';

/**
 * A refused form as its page shows it again (docs/design-record.md#d29): what was typed, each
 * field's messages beside it, and what is not about one field above the form.
 */
export interface FormState {
  /** Which form of the page it was. */
  form: string;
  values: Record<string, string | string[]>;
  fieldErrors: Record<string, string[]>;
  error?: string;
}

/**
 * A form's refusal as it is kept until its page shows it: the API's own words (English) and the
 * refusal's code, worded in the language of the page that shows it (shownForm).
 */
export interface Refusal {
  ok: false;
  /** The API's messages, by field. */
  fieldErrors: Record<string, string[]>;
  /** The refusal's code and detail, when it is not only about fields. */
  problem?: { code: DomainError['code']; detail: string };
  /** Messages about no field of the form, with their paths. */
  loose: string[];
}

export type Attempted<T> = { ok: true; value: T } | Refusal;

/** A kept refusal with what was typed, as a flash holds it. */
export interface KeptForm extends Omit<Refusal, 'ok'> {
  form: string;
  values: Record<string, string | string[]>;
}

/** A kept form in the language of the page that shows it. */
export function shownForm(t: Translator, kept: KeptForm): FormState {
  const fieldErrors = Object.fromEntries(
    Object.entries(kept.fieldErrors).map(([field, messages]) => [field, messages.map((m) => t.fieldMessage(m))]),
  );
  const general = [
    ...(kept.problem ? [refusalText(t, kept.problem.code, kept.problem.detail)] : []),
    ...kept.loose.map((line) => {
      const [path, ...rest] = line.split(': ');
      return `${path}: ${t.fieldMessage(rest.join(': '))}`;
    }),
  ];
  return { form: kept.form, values: kept.values, fieldErrors, error: general.length > 0 ? general.join(' ') : undefined };
}

/** The field a rule's path names (`/url` → url, `/events/2` → events), if the form has it. */
function fieldOfPath(path: string, fields: readonly string[]): string | undefined {
  const first = path.split('/')[1] ?? '';
  return fields.includes(first) ? first : undefined;
}

const CODE_MESSAGES: Partial<Record<DomainError['code'], MessageKey>> = {
  VALIDATION_FAILED: 'error.code.VALIDATION_FAILED',
  PLAN_INTEGRATIONS: 'error.code.PLAN_INTEGRATIONS',
  KEY_LIMIT: 'error.code.KEY_LIMIT',
  WEBHOOK_ENDPOINT_LIMIT: 'error.code.WEBHOOK_ENDPOINT_LIMIT',
  WEBHOOK_URL_REFUSED: 'error.code.WEBHOOK_URL_REFUSED',
  API_RATE_LIMIT: 'error.code.API_RATE_LIMIT',
  NOT_FOUND: 'error.code.NOT_FOUND',
  CONFLICT: 'error.code.CONFLICT',
};

/**
 * Refusals whose problem names no path (the API answers them with a `detail` only) but that are
 * about one field of a form: shown beside that field, in the API's words, like a rule's message.
 */
const CODE_FIELDS: Partial<Record<DomainError['code'], string>> = { WEBHOOK_URL_REFUSED: '/url' };

/** A refusal in the member's language: what the rule's code means, and the API's own detail. */
export function errorMessage(t: Translator, error: DomainError): string {
  return refusalText(t, error.code, error.detail);
}

/**
 * A refusal's code and the API's detail in the member's language: what the code means, then the
 * detail where the language has it (the API words its details in English; a Portuguese page shows
 * the code's meaning alone rather than a sentence in another language).
 */
export function refusalText(t: Translator, code: DomainError['code'], detail: string): string {
  const key = CODE_MESSAGES[code];
  const said = t.fieldMessage(detail);
  const untranslated = t.language !== 'en' && said === detail;
  if (!key) return said;
  if (code === 'VALIDATION_FAILED' || untranslated) return t.t(key);
  return `${t.t(key)} ${said}`;
}

/**
 * Runs what a form asks for with the services' and the contract's own rules (the API's), and
 * turns their refusal into messages on the form's fields. Anything else than a refusal is thrown on.
 */
export async function attempt<T>(fields: readonly string[], action: () => Promise<T>): Promise<Attempted<T>> {
  try {
    return { ok: true, value: await action() };
  } catch (error) {
    if (!(error instanceof DomainError) || error.code === 'INTERNAL' || error.code === 'SERVICE_UNAVAILABLE') throw error;
    const path = CODE_FIELDS[error.code];
    if (path !== undefined && error.fieldErrors.length === 0 && fieldOfPath(path, fields)) {
      return refusal(fields, [{ path, message: error.detail }], { code: 'VALIDATION_FAILED', detail: '' });
    }
    return refusal(fields, error.fieldErrors, { code: error.code, detail: error.detail });
  }
}

/** The contract's or a service's problems with the form's fields, as attempt() words them. */
export function refusal(fields: readonly string[], problems: readonly FieldProblem[], problem?: Refusal['problem']): Refusal {
  const fieldErrors: Record<string, string[]> = {};
  const loose: string[] = [];
  for (const { path, message } of problems) {
    const field = fieldOfPath(path, fields);
    if (field) (fieldErrors[field] ??= []).push(message);
    else loose.push(`${path}: ${message}`);
  }
  return { ok: false, fieldErrors, problem, loose };
}

/** The refused form's state if the page shows this form again. */
export function stateFor(form: string, state: FormState | undefined): FormState | undefined {
  return state?.form === form ? state : undefined;
}

const valueOf = (state: FormState | undefined, name: string): string | undefined => {
  const value = state?.values[name];
  return typeof value === 'string' ? value : undefined;
};

export const valuesOf = (state: FormState | undefined, name: string): string[] | undefined => {
  const value = state?.values[name];
  return Array.isArray(value) ? value : typeof value === 'string' ? [value] : undefined;
};

function errorsBeside(state: FormState | undefined, id: string, name: string): { describedBy: string; markup: SafeHtml } {
  const errors = state?.fieldErrors[name] ?? [];
  if (errors.length === 0) return { describedBy: '', markup: html`` };
  return {
    describedBy: `${id}-error`,
    markup: html`<p class="field-error" id="${id}-error">${errors.join(' ')}</p>`,
  };
}

/** A refused form's message above it. */
export function formError(state: FormState | undefined): SafeHtml {
  if (!state) return html``;
  return html`<div class="message error" role="alert" id="${state.form}-problem">${state.error ?? ''}</div>`;
}

export interface TextFieldOptions {
  id: string;
  name: string;
  label: string;
  type?: 'text' | 'url' | 'email';
  required?: boolean;
  maxlength?: number;
  placeholder?: string;
  hint?: string;
  /** The value shown before anything was typed (an edit form's current value). */
  initial?: string;
  autocomplete?: string;
}

/** A labelled input that shows again what was typed and, beside it, why it was refused. */
export function textField(state: FormState | undefined, opts: TextFieldOptions): SafeHtml {
  const errors = errorsBeside(state, opts.id, opts.name);
  const hintId = opts.hint ? `${opts.id}-hint` : '';
  const describedBy = [hintId, errors.describedBy].filter(Boolean).join(' ');
  return html`<div class="field">
    <label for="${opts.id}">${opts.label}</label>
    ${opts.hint ? html`<p class="hint" id="${hintId}">${opts.hint}</p>` : ''}
    <input
      id="${opts.id}"
      name="${opts.name}"
      type="${opts.type ?? 'text'}"
      value="${valueOf(state, opts.name) ?? opts.initial ?? ''}"
      ${opts.required ? html` required` : ''}
      ${opts.maxlength ? html` maxlength="${opts.maxlength}"` : ''}
      ${opts.placeholder ? html` placeholder="${opts.placeholder}"` : ''}
      ${opts.autocomplete ? html` autocomplete="${opts.autocomplete}"` : ''}
      ${describedBy ? html` aria-describedby="${describedBy}"` : ''}
      ${errors.describedBy ? html` aria-invalid="true"` : ''}
    />
    ${errors.markup}
  </div>`;
}

export interface Choice {
  value: string;
  label: SafeHtml | string;
  detail?: string;
}

/** A group of checkboxes or radios, with the group's refusal beside its legend. */
export function choiceGroup(
  state: FormState | undefined,
  opts: { id: string; name: string; legend: string; type: 'checkbox' | 'radio'; choices: Choice[]; checked: readonly string[] },
): SafeHtml {
  const errors = errorsBeside(state, opts.id, opts.name);
  const checked = new Set(valuesOf(state, opts.name) ?? opts.checked);
  return html`<fieldset id="${opts.id}" ${errors.describedBy ? html` aria-describedby="${errors.describedBy}"` : ''}>
    <legend>${opts.legend}</legend>
    ${errors.markup}
    ${opts.choices.map(
      (choice) =>
        html`<label class="choice"
          ><input type="${opts.type}" name="${opts.name}" value="${choice.value}" ${checked.has(choice.value) ? html` checked` : ''} /><span
            >${choice.label}${choice.detail ? html`<small>${choice.detail}</small>` : ''}</span
          ></label
        >`,
    )}
  </fieldset>`;
}

/** A labelled select. */
export function selectField(
  state: FormState | undefined,
  opts: { id: string; name: string; label: string; options: readonly { value: string; label: string }[]; selected: string },
): SafeHtml {
  const errors = errorsBeside(state, opts.id, opts.name);
  const selected = valueOf(state, opts.name) ?? opts.selected;
  return html`<div class="field">
    <label for="${opts.id}">${opts.label}</label>
    <select
      id="${opts.id}"
      name="${opts.name}"
      ${errors.describedBy ? html` aria-describedby="${errors.describedBy}" aria-invalid="true"` : ''}
    >
      ${opts.options.map((o) => html`<option value="${o.value}" ${o.value === selected ? html` selected` : ''}>${o.label}</option>`)}
    </select>
    ${errors.markup}
  </div>`;
}

import { loadContract } from '#contract/openapi-document.js';
import { buildNoticeBody, checkNoticeBody, NOTICE_DATA_FIELDS } from './notice-body.js';
import { CORE_NOTICE_TYPES } from './notice-types.js';

const subjectId = '01944c2e-5b7a-7d3f-9c1e-3a8b6f2d4e10';
const occurredAt = new Date('2030-01-07T09:00:00.000Z');

describe('checkNoticeBody', () => {
  it('keeps exactly the D9 fields, in D9 order', () => {
    const built = buildNoticeBody({ type: 'payment.received', businessSlug: 'salon', subjectId, occurredAt });
    // jsonb gives the keys back in its own order; the body is rebuilt in docs/design-record.md#d9's.
    const stored = {
      data: { occurredAt: built.data.occurredAt, id: subjectId },
      business: 'salon',
      type: built.type,
      id: built.id,
      createdAt: built.createdAt,
    };
    const body = checkNoticeBody(stored, CORE_NOTICE_TYPES);
    expect(Object.keys(body)).toEqual(['id', 'type', 'createdAt', 'business', 'data']);
    expect(Object.keys(body.data)).toEqual(['id', 'occurredAt']);
    expect(body).toEqual(built);
  });

  it('requires previousId on appointment.rescheduled, and only there', () => {
    const rescheduled = buildNoticeBody({
      type: 'appointment.rescheduled',
      businessSlug: 'salon',
      subjectId,
      occurredAt,
      previousId: subjectId,
    });
    expect(checkNoticeBody(rescheduled, CORE_NOTICE_TYPES).data).toEqual({
      id: subjectId,
      occurredAt: occurredAt.toISOString(),
      previousId: subjectId,
    });
    expect(() =>
      checkNoticeBody({ ...rescheduled, data: { id: subjectId, occurredAt: rescheduled.data.occurredAt } }, CORE_NOTICE_TYPES),
    ).toThrow(/previousId/);
    const created = buildNoticeBody({ type: 'appointment.created', businessSlug: 'salon', subjectId, occurredAt });
    expect(() => checkNoticeBody({ ...created, data: { ...created.data, previousId: subjectId } }, CORE_NOTICE_TYPES)).toThrow(
      /previousId/,
    );
  });

  it("carries, by type, the data fields the contract's Notice schema requires for it (its if/then on type)", () => {
    interface TypeRule {
      if: { properties: { type: { const: string } } };
      then: { properties: { data: { required: string[] } } };
    }
    const notice = loadContract().document.components.schemas?.Notice as TypeRule;
    expect(NOTICE_DATA_FIELDS).toEqual({ [notice.if.properties.type.const]: notice.then.properties.data.required });
  });

  it('takes its rules for a type from NOTICE_DATA_FIELDS alone: data in the declared order, nothing else', () => {
    const rescheduled = buildNoticeBody({
      type: 'appointment.rescheduled',
      businessSlug: 'salon',
      subjectId,
      occurredAt,
      previousId: subjectId,
    });
    const reordered = { ...rescheduled, data: { previousId: subjectId, occurredAt: rescheduled.data.occurredAt, id: subjectId } };
    expect(Object.keys(checkNoticeBody(reordered, CORE_NOTICE_TYPES).data)).toEqual(['id', 'occurredAt', 'previousId']);
    const created = buildNoticeBody({ type: 'client.created', businessSlug: 'salon', subjectId, occurredAt, previousId: subjectId });
    expect(() => checkNoticeBody(created, CORE_NOTICE_TYPES)).toThrow('unknown field data.previousId for client.created');
  });

  it('refuses any other field, anywhere', () => {
    const body = buildNoticeBody({ type: 'client.created', businessSlug: 'salon', subjectId, occurredAt });
    expect(() => checkNoticeBody({ ...body, name: 'Maria' }, CORE_NOTICE_TYPES)).toThrow(/unknown field name/);
    expect(() => checkNoticeBody({ ...body, data: { ...body.data, phone: '+351912345678' } }, CORE_NOTICE_TYPES)).toThrow(
      /unknown field data.phone/,
    );
    expect(() => checkNoticeBody({ ...body, data: { ...body.data, amountCents: 2500 } }, CORE_NOTICE_TYPES)).toThrow(/data.amountCents/);
  });

  it('refuses unknown types and missing fields', () => {
    const body = buildNoticeBody({ type: 'sale.created', businessSlug: 'salon', subjectId, occurredAt });
    expect(() => checkNoticeBody({ ...body, type: 'sale.deleted' }, CORE_NOTICE_TYPES)).toThrow(/not a notice type/);
    const { business: _business, ...withoutBusiness } = body;
    expect(() => checkNoticeBody(withoutBusiness, CORE_NOTICE_TYPES)).toThrow(/business/);
    expect(() => checkNoticeBody('{}', CORE_NOTICE_TYPES)).toThrow();
  });
});

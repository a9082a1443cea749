import { ClientEntity } from '#database/entities/client.entity.js';
import { newClientRow } from './new-client-row.js';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const now = new Date('2026-06-01T12:00:00Z');

describe('newClientRow', () => {
  it('fills id and timestamps, dates the consent given, and stores null for what was not said', () => {
    const row = newClientRow({ businessId: 'business-1', name: 'João Silva', phone: '+351912345678', consent: true }, now);
    expect(row).toBeInstanceOf(ClientEntity);
    expect(row).toEqual({
      id: expect.stringMatching(UUID_V7),
      businessId: 'business-1',
      name: 'João Silva',
      phone: '+351912345678',
      email: null,
      birthDate: null,
      guardianName: null,
      guardianEmail: null,
      consent: true,
      consentAt: now,
      notes: null,
      metadata: {},
      createdAt: now,
      updatedAt: now,
    });
  });

  it('keeps every field it is given, and no consent date without consent', () => {
    const row = newClientRow(
      {
        businessId: 'business-1',
        name: 'Rita',
        phone: null,
        email: 'rita@example.com',
        birthDate: '2015-03-02',
        guardianName: 'Ana',
        guardianEmail: 'ana@example.com',
        consent: false,
        notes: 'allergic to latex',
      },
      now,
    );
    expect(row).toMatchObject({
      phone: null,
      email: 'rita@example.com',
      birthDate: '2015-03-02',
      guardianName: 'Ana',
      guardianEmail: 'ana@example.com',
      consent: false,
      consentAt: null,
      notes: 'allergic to latex',
    });
  });

  it('gives every row its own id', () => {
    const fields = { businessId: 'b', name: 'Jo', phone: null, consent: false };
    expect(newClientRow(fields, now).id).not.toBe(newClientRow(fields, now).id);
  });
});

import type { Schemas } from '#contract/contract-types.js';
import type { ServiceEntity } from '#database/entities/service.entity.js';

export function toService(service: ServiceEntity, currency: string): Schemas['Service'] {
  return {
    id: service.id,
    name: service.name,
    durationMin: service.durationMin,
    price: { cents: service.priceCents, currency },
    active: service.active,
    category: service.category,
  };
}

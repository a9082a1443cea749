import { Injectable } from '@nestjs/common';
import type { ServiceEntity } from '#database/entities/service.entity.js';
import { ServicesRepository } from './services.repository.js';

@Injectable()
export class ServicesService {
  constructor(private readonly services: ServicesRepository) {}

  list(businessId: string): Promise<ServiceEntity[]> {
    return this.services.listByBusiness(businessId);
  }
}

import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { BusinessEntity, type Plan } from '#database/entities/business.entity.js';
import { MemberEntity } from '#database/entities/member.entity.js';
import { managerFor } from '#database/transaction-context.js';

@Injectable()
export class BusinessesRepository {
  constructor(private readonly dataSource: DataSource) {}

  private businesses(manager?: EntityManager) {
    return managerFor(this.dataSource, manager).getRepository(BusinessEntity);
  }

  findById(businessId: string): Promise<BusinessEntity | null> {
    return this.businesses().findOneBy({ id: businessId });
  }

  findBySlug(slug: string, manager?: EntityManager): Promise<BusinessEntity | null> {
    return this.businesses(manager).findOneBy({ slug });
  }

  async insert(business: BusinessEntity, manager?: EntityManager): Promise<void> {
    await this.businesses(manager).insert(business);
  }

  async updatePlan(businessId: string, plan: Plan): Promise<void> {
    await this.businesses().update({ id: businessId }, { plan, updatedAt: () => 'now()' });
  }

  findMemberByEmail(businessId: string, email: string, manager?: EntityManager): Promise<MemberEntity | null> {
    return managerFor(this.dataSource, manager)
      .getRepository(MemberEntity)
      .findOneBy({ businessId, email: email.toLowerCase() });
  }

  async insertMember(member: MemberEntity, manager?: EntityManager): Promise<void> {
    await managerFor(this.dataSource, manager).getRepository(MemberEntity).insert(member);
  }
}

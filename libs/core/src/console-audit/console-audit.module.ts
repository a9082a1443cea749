import { Module } from '@nestjs/common';
import { ConsoleAuditRepository } from './console-audit.repository.js';
import { ConsoleAuditService } from './console-audit.service.js';

@Module({ providers: [ConsoleAuditRepository, ConsoleAuditService], exports: [ConsoleAuditService] })
export class ConsoleAuditModule {}

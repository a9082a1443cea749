// Baseline of S1: a minimal Nest app on the same platform as ours (Express), one route, no
// guards, filters, middleware or database. What Nest itself costs per request.
import 'reflect-metadata';
import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';

const ME = { business: { slug: 'bench-001', name: 'Bench business 1' }, key: { name: 'Bench key', scopes: [] } };

@Controller('me')
class MeController {
  @Get()
  getMe(): typeof ME {
    return ME;
  }
}

@Module({ controllers: [MeController] })
class BareModule {}

const app = await NestFactory.create<NestExpressApplication>(BareModule, { logger: false, bodyParser: false });
app.setGlobalPrefix('v1/api');
await app.listen(Number(process.env.PORT), '127.0.0.1');

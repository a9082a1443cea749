import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Initial1795298437629 implements MigrationInterface {
  name = 'Initial1795298437629';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Hand-written: the exclusion constraint on appointments needs btree_gist for the "=" on staff_id.
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS btree_gist`);
    await queryRunner.query(
      `CREATE TABLE "businesses" ("id" uuid NOT NULL, "slug" text NOT NULL, "name" text NOT NULL, "timezone" text NOT NULL, "country" text NOT NULL, "currency" text NOT NULL, "locale" text, "plan" text NOT NULL, "auto_confirm" boolean NOT NULL DEFAULT true, "notification_email" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "UQ_82ca19bc20713fdfa72626a5da0" UNIQUE ("slug"), CONSTRAINT "businesses_plan_check" CHECK (plan IN ('FREE', 'SOLO', 'TEAM')), CONSTRAINT "PK_bc1bf63498dd2368ce3dc8686e8" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "members" ("id" uuid NOT NULL, "business_id" uuid NOT NULL, "name" text NOT NULL, "email" text NOT NULL, "role" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "members_role_check" CHECK (role IN ('OWNER', 'PARTNER', 'STAFF')), CONSTRAINT "PK_28b53062261b996d9c99fa12404" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "members_business_email_key" ON "members"  ("business_id", "email") `);
    await queryRunner.query(
      `CREATE TABLE "api_keys" ("id" uuid NOT NULL, "business_id" uuid NOT NULL, "member_id" uuid NOT NULL, "name" text NOT NULL, "prefix" text NOT NULL, "key_hash" text NOT NULL, "scopes" text array NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "revoked_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_5c8a79801b44bd27b79228e1dad" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "api_keys_business_prefix_idx" ON "api_keys"  ("business_id", "prefix") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "api_keys_hash_key" ON "api_keys"  ("key_hash") `);
    await queryRunner.query(
      `CREATE TABLE "clients" ("id" uuid NOT NULL, "business_id" uuid NOT NULL, "name" text NOT NULL, "phone" text, "email" text, "birth_date" date, "guardian_name" text, "guardian_email" text, "consent" boolean NOT NULL DEFAULT false, "consent_at" TIMESTAMP WITH TIME ZONE, "notes" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_f1ab7cf3a5714dbc6bb4e1c28a4" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "clients_business_phone_key" ON "clients"  ("business_id", "phone") WHERE phone IS NOT NULL`,
    );
    await queryRunner.query(`CREATE INDEX "clients_business_updated_idx" ON "clients"  ("business_id", "updated_at", "id") `);
    // Hand-written: e-mail uniqueness is case-insensitive, an expression TypeORM cannot declare.
    await queryRunner.query(
      `CREATE UNIQUE INDEX "clients_business_email_key" ON "clients" ("business_id", lower("email")) WHERE email IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE TABLE "services" ("id" uuid NOT NULL, "business_id" uuid NOT NULL, "name" text NOT NULL, "duration_min" integer NOT NULL, "price_cents" integer NOT NULL, "category" text, "active" boolean NOT NULL DEFAULT true, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "services_price_check" CHECK (price_cents >= 0), CONSTRAINT "services_duration_check" CHECK (duration_min > 0), CONSTRAINT "PK_ba2d347a3168a296416c6c5ccb2" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "services_business_name_idx" ON "services"  ("business_id", "name", "id") `);
    await queryRunner.query(
      `CREATE TABLE "staff" ("id" uuid NOT NULL, "business_id" uuid NOT NULL, "name" text NOT NULL, "active" boolean NOT NULL DEFAULT true, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_e4ee98bb552756c180aec1e854a" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "staff_business_idx" ON "staff"  ("business_id") `);
    await queryRunner.query(
      `CREATE TABLE "appointments" ("id" uuid NOT NULL, "business_id" uuid NOT NULL, "staff_id" uuid NOT NULL, "service_id" uuid, "service_name" text NOT NULL, "client_id" uuid NOT NULL, "status" text NOT NULL, "starts_at" TIMESTAMP WITH TIME ZONE NOT NULL, "ends_at" TIMESTAMP WITH TIME ZONE NOT NULL, "duration_min" integer NOT NULL, "price_cents" integer NOT NULL, "currency" text NOT NULL, "source" text NOT NULL, "location_id" uuid, "rescheduled_from_id" uuid, "code" text NOT NULL, "cancellation_reason" text, "cancelled_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "appointments_interval_check" CHECK (starts_at < ends_at), CONSTRAINT "appointments_status_check" CHECK (status IN ('PENDING', 'CONFIRMED', 'RESCHEDULED', 'CANCELLED', 'COMPLETED', 'NO_SHOW')), CONSTRAINT "appointments_no_overlap" EXCLUDE USING gist ("staff_id" WITH =, tstzrange("starts_at", "ends_at", '[)') WITH &&) WHERE ("status" IN ('PENDING', 'CONFIRMED')), CONSTRAINT "PK_4a437a9a27e948726b8bb3e36ad" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "appointments_code_key" ON "appointments"  ("business_id", "code") `);
    await queryRunner.query(
      `CREATE INDEX "appointments_business_status_start_idx" ON "appointments"  ("business_id", "status", "starts_at", "id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "appointments_business_staff_start_idx" ON "appointments"  ("business_id", "staff_id", "starts_at", "id") `,
    );
    await queryRunner.query(`CREATE INDEX "appointments_business_start_idx" ON "appointments"  ("business_id", "starts_at", "id") `);
    await queryRunner.query(
      `CREATE TABLE "notices" ("id" uuid NOT NULL, "business_id" uuid NOT NULL, "type" text NOT NULL, "payload" jsonb NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "relayed_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_3eb18c29da25d6935fcbe584237" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "notices_business_created_idx" ON "notices"  ("business_id", "created_at") `);
    await queryRunner.query(`CREATE INDEX "notices_unrelayed_idx" ON "notices"  ("created_at") WHERE relayed_at IS NULL`);
    await queryRunner.query(
      `CREATE TABLE "webhook_endpoints" ("id" uuid NOT NULL, "business_id" uuid NOT NULL, "url" text NOT NULL, "events" text array NOT NULL, "secret" text NOT NULL, "previous_secret" text, "previous_secret_expires_at" TIMESTAMP WITH TIME ZONE, "enabled" boolean NOT NULL DEFAULT true, "disabled_reason" text, "failing_since" TIMESTAMP WITH TIME ZONE, "created_by_member_id" uuid, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_054c4cfb95223732f5939d2d546" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "webhook_endpoints_business_idx" ON "webhook_endpoints"  ("business_id") `);
    await queryRunner.query(
      `CREATE TABLE "notice_deliveries" ("id" uuid NOT NULL, "business_id" uuid NOT NULL, "notice_id" uuid NOT NULL, "endpoint_id" uuid NOT NULL, "status" text NOT NULL DEFAULT 'PENDING', "attempts" integer NOT NULL DEFAULT '0', "next_attempt_at" TIMESTAMP WITH TIME ZONE, "delivered_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "notice_deliveries_status_check" CHECK (status IN ('PENDING', 'DELIVERED', 'FAILED')), CONSTRAINT "PK_936f61f7a56488c972f885d443e" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "notice_deliveries_endpoint_status_idx" ON "notice_deliveries"  ("endpoint_id", "status") `);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "notice_deliveries_notice_endpoint_key" ON "notice_deliveries"  ("notice_id", "endpoint_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "delivery_attempts" ("id" uuid NOT NULL, "delivery_id" uuid NOT NULL, "attempted_at" TIMESTAMP WITH TIME ZONE NOT NULL, "status_code" integer, "duration_ms" integer NOT NULL, "error" text, CONSTRAINT "PK_41eba4eb5401d72860f7cd9a7ac" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "delivery_attempts_delivery_idx" ON "delivery_attempts"  ("delivery_id", "attempted_at") `);
    await queryRunner.query(
      `CREATE TABLE "idempotency_records" ("id" uuid NOT NULL, "api_key_id" uuid NOT NULL, "idempotency_key" text NOT NULL, "fingerprint" text NOT NULL, "response_status" integer NOT NULL, "response_body" text NOT NULL, "response_content_type" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_9ae4e93699362b0d4e3da3dd1c2" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "idempotency_records_expires_idx" ON "idempotency_records"  ("expires_at") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "idempotency_records_key" ON "idempotency_records"  ("api_key_id", "idempotency_key") `);
    await queryRunner.query(
      `CREATE TABLE "payments" ("id" uuid NOT NULL, "business_id" uuid NOT NULL, "appointment_id" uuid NOT NULL, "channel" text NOT NULL, "method" text NOT NULL, "status" text NOT NULL, "is_deposit" boolean NOT NULL DEFAULT false, "amount_cents" integer NOT NULL, "currency" text NOT NULL, "paid_at" TIMESTAMP WITH TIME ZONE, "refund_cents" integer NOT NULL DEFAULT '0', "instrument_data" jsonb, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "payments_amount_check" CHECK (amount_cents >= 0 AND refund_cents >= 0), CONSTRAINT "payments_status_check" CHECK (status IN ('PENDING', 'PAID', 'PARTIALLY_REFUNDED', 'REFUNDED', 'FAILED', 'CANCELLED')), CONSTRAINT "payments_method_check" CHECK (method IN ('CASH', 'CARD', 'PIX', 'MBWAY', 'BANK_TRANSFER', 'VOUCHER', 'OTHER')), CONSTRAINT "payments_channel_check" CHECK (channel IN ('IN_PERSON', 'ONLINE')), CONSTRAINT "PK_197ab7af18c93fbb0c9b28b4a59" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "payments_appointment_idx" ON "payments"  ("appointment_id") `);
    await queryRunner.query(`CREATE INDEX "payments_business_updated_idx" ON "payments"  ("business_id", "updated_at", "id") `);
    await queryRunner.query(
      `CREATE TABLE "sales" ("id" uuid NOT NULL, "business_id" uuid NOT NULL, "number" integer NOT NULL, "status" text NOT NULL, "client_id" uuid, "appointment_id" uuid, "payment_pending" boolean NOT NULL DEFAULT false, "subtotal_cents" integer NOT NULL, "discount_cents" integer NOT NULL, "total_cents" integer NOT NULL, "currency" text NOT NULL, "internal_note" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "sales_status_check" CHECK (status IN ('OPEN', 'COMPLETED', 'VOID')), CONSTRAINT "PK_4f0bc990ae81dba46da680895ea" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "sales_business_number_key" ON "sales"  ("business_id", "number") `);
    await queryRunner.query(`CREATE INDEX "sales_business_updated_idx" ON "sales"  ("business_id", "updated_at", "id") `);
    await queryRunner.query(
      `CREATE TABLE "sale_items" ("id" uuid NOT NULL, "business_id" uuid NOT NULL, "sale_id" uuid NOT NULL, "position" integer NOT NULL, "type" text NOT NULL, "name" text NOT NULL, "service_id" uuid, "quantity" integer NOT NULL, "unit_price_cents" integer NOT NULL, "discount_cents" integer NOT NULL DEFAULT '0', "total_cents" integer NOT NULL, "cost_cents" integer, CONSTRAINT "sale_items_quantity_check" CHECK (quantity > 0), CONSTRAINT "sale_items_type_check" CHECK (type IN ('SERVICE', 'PRODUCT', 'PACKAGE', 'GIFT_CARD', 'OTHER')), CONSTRAINT "PK_5a7dc5b4562a9e590528b3e08ab" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "sale_items_sale_idx" ON "sale_items"  ("sale_id", "position") `);
    await queryRunner.query(
      `CREATE TABLE "staff_services" ("staff_id" uuid NOT NULL, "service_id" uuid NOT NULL, "business_id" uuid NOT NULL, CONSTRAINT "PK_e24f1ebc4df9eb7a2462ad1a261" PRIMARY KEY ("staff_id", "service_id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "staff_time_blocks" ("id" uuid NOT NULL, "business_id" uuid NOT NULL, "staff_id" uuid NOT NULL, "starts_at" TIMESTAMP WITH TIME ZONE NOT NULL, "ends_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "staff_time_blocks_interval_check" CHECK (starts_at < ends_at), CONSTRAINT "PK_dd1bf54f71b9a90d025013c7016" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "staff_time_blocks_staff_idx" ON "staff_time_blocks"  ("staff_id", "starts_at") `);
    await queryRunner.query(
      `CREATE TABLE "staff_working_hours" ("id" uuid NOT NULL, "business_id" uuid NOT NULL, "staff_id" uuid NOT NULL, "weekday" smallint NOT NULL, "start_time" TIME NOT NULL, "end_time" TIME NOT NULL, CONSTRAINT "staff_working_hours_interval_check" CHECK (start_time < end_time), CONSTRAINT "staff_working_hours_weekday_check" CHECK (weekday BETWEEN 1 AND 7), CONSTRAINT "PK_acc867c54e3188dc531b9652e38" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "staff_working_hours_staff_idx" ON "staff_working_hours"  ("staff_id", "weekday") `);
    await queryRunner.query(
      `ALTER TABLE "members" ADD CONSTRAINT "FK_cffad26f794a8de590521d0ca90" FOREIGN KEY ("business_id") REFERENCES "businesses"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "api_keys" ADD CONSTRAINT "FK_b09e28e6ec04d278e1f56a5a9d1" FOREIGN KEY ("business_id") REFERENCES "businesses"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "api_keys" ADD CONSTRAINT "FK_34163d14158a753762741134c09" FOREIGN KEY ("member_id") REFERENCES "members"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "clients" ADD CONSTRAINT "FK_73c7fe72d1d6262ccbe62dae12d" FOREIGN KEY ("business_id") REFERENCES "businesses"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "services" ADD CONSTRAINT "FK_c591d6bbbe01010d8705127ba33" FOREIGN KEY ("business_id") REFERENCES "businesses"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "staff" ADD CONSTRAINT "FK_c78e4999feaf19a95765ef79d94" FOREIGN KEY ("business_id") REFERENCES "businesses"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "appointments" ADD CONSTRAINT "FK_1496c752231bd35c97041862bd4" FOREIGN KEY ("business_id") REFERENCES "businesses"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "appointments" ADD CONSTRAINT "FK_d211f77ba4a4f32903f0fb73a75" FOREIGN KEY ("staff_id") REFERENCES "staff"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "appointments" ADD CONSTRAINT "FK_2a2088e8eaa8f28d8de2bdbb857" FOREIGN KEY ("service_id") REFERENCES "services"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "appointments" ADD CONSTRAINT "FK_ccc5bbce58ad6bc96faa428b1e4" FOREIGN KEY ("client_id") REFERENCES "clients"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "appointments" ADD CONSTRAINT "FK_74a514c97efe18c24526b1bd17a" FOREIGN KEY ("rescheduled_from_id") REFERENCES "appointments"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "notices" ADD CONSTRAINT "FK_619533a82ac9a80890b599b9f26" FOREIGN KEY ("business_id") REFERENCES "businesses"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "FK_d040923ed8f6dc87f9266e9528a" FOREIGN KEY ("business_id") REFERENCES "businesses"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "notice_deliveries" ADD CONSTRAINT "FK_6bc35f8bdee788327e2079ec534" FOREIGN KEY ("notice_id") REFERENCES "notices"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "notice_deliveries" ADD CONSTRAINT "FK_aae4e0e3bceb32fdfafdf4055e4" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "delivery_attempts" ADD CONSTRAINT "FK_a9d7e7212c87084249a641ab455" FOREIGN KEY ("delivery_id") REFERENCES "notice_deliveries"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "idempotency_records" ADD CONSTRAINT "FK_46abeb9a9627d47587d04cd9f5a" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "payments" ADD CONSTRAINT "FK_07889d42d0b29705cf4a649576b" FOREIGN KEY ("business_id") REFERENCES "businesses"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "payments" ADD CONSTRAINT "FK_9f49987820da519f855d04c82bd" FOREIGN KEY ("appointment_id") REFERENCES "appointments"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "sales" ADD CONSTRAINT "FK_3f9b4d6fecb2ce2eb0cadba3041" FOREIGN KEY ("business_id") REFERENCES "businesses"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "sales" ADD CONSTRAINT "FK_c49d95226945ca3a93584f912ca" FOREIGN KEY ("client_id") REFERENCES "clients"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "sales" ADD CONSTRAINT "FK_28e7ea742ac87ece49e2d53d616" FOREIGN KEY ("appointment_id") REFERENCES "appointments"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "sale_items" ADD CONSTRAINT "FK_c210a330b80232c29c2ad68462a" FOREIGN KEY ("sale_id") REFERENCES "sales"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "sale_items" ADD CONSTRAINT "FK_7b1b80afaa6726b842001a8601c" FOREIGN KEY ("service_id") REFERENCES "services"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "staff_services" ADD CONSTRAINT "FK_f87ce320f719ddfe336b6b49828" FOREIGN KEY ("staff_id") REFERENCES "staff"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "staff_services" ADD CONSTRAINT "FK_9c320b3170bb98885902ff9ef85" FOREIGN KEY ("service_id") REFERENCES "services"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "staff_time_blocks" ADD CONSTRAINT "FK_664179d3b4518e1aed5b4baa806" FOREIGN KEY ("staff_id") REFERENCES "staff"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "staff_working_hours" ADD CONSTRAINT "FK_e63ed000bb78bfa22bc0ddc9aff" FOREIGN KEY ("staff_id") REFERENCES "staff"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "clients_business_email_key"`);
    await queryRunner.query(`ALTER TABLE "staff_working_hours" DROP CONSTRAINT "FK_e63ed000bb78bfa22bc0ddc9aff"`);
    await queryRunner.query(`ALTER TABLE "staff_time_blocks" DROP CONSTRAINT "FK_664179d3b4518e1aed5b4baa806"`);
    await queryRunner.query(`ALTER TABLE "staff_services" DROP CONSTRAINT "FK_9c320b3170bb98885902ff9ef85"`);
    await queryRunner.query(`ALTER TABLE "staff_services" DROP CONSTRAINT "FK_f87ce320f719ddfe336b6b49828"`);
    await queryRunner.query(`ALTER TABLE "sale_items" DROP CONSTRAINT "FK_7b1b80afaa6726b842001a8601c"`);
    await queryRunner.query(`ALTER TABLE "sale_items" DROP CONSTRAINT "FK_c210a330b80232c29c2ad68462a"`);
    await queryRunner.query(`ALTER TABLE "sales" DROP CONSTRAINT "FK_28e7ea742ac87ece49e2d53d616"`);
    await queryRunner.query(`ALTER TABLE "sales" DROP CONSTRAINT "FK_c49d95226945ca3a93584f912ca"`);
    await queryRunner.query(`ALTER TABLE "sales" DROP CONSTRAINT "FK_3f9b4d6fecb2ce2eb0cadba3041"`);
    await queryRunner.query(`ALTER TABLE "payments" DROP CONSTRAINT "FK_9f49987820da519f855d04c82bd"`);
    await queryRunner.query(`ALTER TABLE "payments" DROP CONSTRAINT "FK_07889d42d0b29705cf4a649576b"`);
    await queryRunner.query(`ALTER TABLE "idempotency_records" DROP CONSTRAINT "FK_46abeb9a9627d47587d04cd9f5a"`);
    await queryRunner.query(`ALTER TABLE "delivery_attempts" DROP CONSTRAINT "FK_a9d7e7212c87084249a641ab455"`);
    await queryRunner.query(`ALTER TABLE "notice_deliveries" DROP CONSTRAINT "FK_aae4e0e3bceb32fdfafdf4055e4"`);
    await queryRunner.query(`ALTER TABLE "notice_deliveries" DROP CONSTRAINT "FK_6bc35f8bdee788327e2079ec534"`);
    await queryRunner.query(`ALTER TABLE "webhook_endpoints" DROP CONSTRAINT "FK_d040923ed8f6dc87f9266e9528a"`);
    await queryRunner.query(`ALTER TABLE "notices" DROP CONSTRAINT "FK_619533a82ac9a80890b599b9f26"`);
    await queryRunner.query(`ALTER TABLE "appointments" DROP CONSTRAINT "FK_74a514c97efe18c24526b1bd17a"`);
    await queryRunner.query(`ALTER TABLE "appointments" DROP CONSTRAINT "FK_ccc5bbce58ad6bc96faa428b1e4"`);
    await queryRunner.query(`ALTER TABLE "appointments" DROP CONSTRAINT "FK_2a2088e8eaa8f28d8de2bdbb857"`);
    await queryRunner.query(`ALTER TABLE "appointments" DROP CONSTRAINT "FK_d211f77ba4a4f32903f0fb73a75"`);
    await queryRunner.query(`ALTER TABLE "appointments" DROP CONSTRAINT "FK_1496c752231bd35c97041862bd4"`);
    await queryRunner.query(`ALTER TABLE "staff" DROP CONSTRAINT "FK_c78e4999feaf19a95765ef79d94"`);
    await queryRunner.query(`ALTER TABLE "services" DROP CONSTRAINT "FK_c591d6bbbe01010d8705127ba33"`);
    await queryRunner.query(`ALTER TABLE "clients" DROP CONSTRAINT "FK_73c7fe72d1d6262ccbe62dae12d"`);
    await queryRunner.query(`ALTER TABLE "api_keys" DROP CONSTRAINT "FK_34163d14158a753762741134c09"`);
    await queryRunner.query(`ALTER TABLE "api_keys" DROP CONSTRAINT "FK_b09e28e6ec04d278e1f56a5a9d1"`);
    await queryRunner.query(`ALTER TABLE "members" DROP CONSTRAINT "FK_cffad26f794a8de590521d0ca90"`);
    await queryRunner.query(`DROP INDEX "public"."staff_working_hours_staff_idx"`);
    await queryRunner.query(`DROP TABLE "staff_working_hours"`);
    await queryRunner.query(`DROP INDEX "public"."staff_time_blocks_staff_idx"`);
    await queryRunner.query(`DROP TABLE "staff_time_blocks"`);
    await queryRunner.query(`DROP TABLE "staff_services"`);
    await queryRunner.query(`DROP INDEX "public"."sale_items_sale_idx"`);
    await queryRunner.query(`DROP TABLE "sale_items"`);
    await queryRunner.query(`DROP INDEX "public"."sales_business_updated_idx"`);
    await queryRunner.query(`DROP INDEX "public"."sales_business_number_key"`);
    await queryRunner.query(`DROP TABLE "sales"`);
    await queryRunner.query(`DROP INDEX "public"."payments_business_updated_idx"`);
    await queryRunner.query(`DROP INDEX "public"."payments_appointment_idx"`);
    await queryRunner.query(`DROP TABLE "payments"`);
    await queryRunner.query(`DROP INDEX "public"."idempotency_records_key"`);
    await queryRunner.query(`DROP INDEX "public"."idempotency_records_expires_idx"`);
    await queryRunner.query(`DROP TABLE "idempotency_records"`);
    await queryRunner.query(`DROP INDEX "public"."delivery_attempts_delivery_idx"`);
    await queryRunner.query(`DROP TABLE "delivery_attempts"`);
    await queryRunner.query(`DROP INDEX "public"."notice_deliveries_notice_endpoint_key"`);
    await queryRunner.query(`DROP INDEX "public"."notice_deliveries_endpoint_status_idx"`);
    await queryRunner.query(`DROP TABLE "notice_deliveries"`);
    await queryRunner.query(`DROP INDEX "public"."webhook_endpoints_business_idx"`);
    await queryRunner.query(`DROP TABLE "webhook_endpoints"`);
    await queryRunner.query(`DROP INDEX "public"."notices_unrelayed_idx"`);
    await queryRunner.query(`DROP INDEX "public"."notices_business_created_idx"`);
    await queryRunner.query(`DROP TABLE "notices"`);
    await queryRunner.query(`DROP INDEX "public"."appointments_business_start_idx"`);
    await queryRunner.query(`DROP INDEX "public"."appointments_business_staff_start_idx"`);
    await queryRunner.query(`DROP INDEX "public"."appointments_business_status_start_idx"`);
    await queryRunner.query(`DROP INDEX "public"."appointments_code_key"`);
    await queryRunner.query(`DROP TABLE "appointments"`);
    await queryRunner.query(`DROP INDEX "public"."staff_business_idx"`);
    await queryRunner.query(`DROP TABLE "staff"`);
    await queryRunner.query(`DROP INDEX "public"."services_business_name_idx"`);
    await queryRunner.query(`DROP TABLE "services"`);
    await queryRunner.query(`DROP INDEX "public"."clients_business_updated_idx"`);
    await queryRunner.query(`DROP INDEX "public"."clients_business_phone_key"`);
    await queryRunner.query(`DROP TABLE "clients"`);
    await queryRunner.query(`DROP INDEX "public"."api_keys_hash_key"`);
    await queryRunner.query(`DROP INDEX "public"."api_keys_business_prefix_idx"`);
    await queryRunner.query(`DROP TABLE "api_keys"`);
    await queryRunner.query(`DROP INDEX "public"."members_business_email_key"`);
    await queryRunner.query(`DROP TABLE "members"`);
    await queryRunner.query(`DROP TABLE "businesses"`);
    await queryRunner.query(`DROP EXTENSION IF EXISTS btree_gist`);
  }
}

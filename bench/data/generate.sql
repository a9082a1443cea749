-- Bench data, built once into bench_template after `migrate` (bench/data/template.ts).
-- Every id is md5(<kind><number>)::uuid, so each table can point at another by formula, with
-- no lookups. Sizes (issue 7): 100 businesses, 1,000 staff, 100,000 clients, 1,000,000
-- appointments (business 1 holds 200,000), 100 webhook endpoints. API keys are not here: they
-- are made per run with the project's key code (bench/data/keys.ts).
--
-- Business 1 has staff 1-100 and clients 1-20,000; businesses 2-100 share the other staff and
-- clients round-robin (staff n belongs to business 2 + (n - 101) % 99, client n to
-- 2 + (n - 20001) % 99). Staff work 00:00-24:00 every day, so any future slot on the half-hour
-- grid is bookable; existing appointments are spaced 8 h (business 1) or 12 h apart per staff
-- member, ending well before the slots the write scenario books (2035 onwards).

SET synchronous_commit = off;

INSERT INTO businesses (id, slug, name, timezone, country, currency, locale, plan, auto_confirm, notification_email)
SELECT md5('business' || b)::uuid, 'bench-' || lpad(b::text, 3, '0'), 'Bench business ' || b, 'Europe/Lisbon',
       'PT', 'EUR', 'pt-PT', 'TEAM', true, 'desk@bench-' || lpad(b::text, 3, '0') || '.example'
  FROM generate_series(1, 100) AS b;

INSERT INTO members (id, business_id, name, email, role)
SELECT md5('member' || b)::uuid, md5('business' || b)::uuid, 'Owner ' || b,
       'owner@bench-' || lpad(b::text, 3, '0') || '.example', 'OWNER'
  FROM generate_series(1, 100) AS b;

-- Five services per business; service 1 (30 min) is the one the write scenario books.
INSERT INTO services (id, business_id, name, duration_min, price_cents, category, active)
SELECT md5('service' || b || '-' || s)::uuid, md5('business' || b)::uuid, 'Service ' || s,
       (ARRAY[30, 45, 60, 90, 30])[s], 1500 + 500 * s, 'Bench', true
  FROM generate_series(1, 100) AS b, generate_series(1, 5) AS s;

INSERT INTO staff (id, business_id, name, active)
SELECT md5('staff' || n)::uuid,
       md5('business' || CASE WHEN n <= 100 THEN 1 ELSE 2 + (n - 101) % 99 END)::uuid,
       'Staff ' || n, true
  FROM generate_series(1, 1000) AS n;

INSERT INTO staff_working_hours (id, business_id, staff_id, weekday, start_time, end_time)
SELECT md5('hours' || n || '-' || d)::uuid,
       md5('business' || CASE WHEN n <= 100 THEN 1 ELSE 2 + (n - 101) % 99 END)::uuid,
       md5('staff' || n)::uuid, d, '00:00', '24:00'
  FROM generate_series(1, 1000) AS n, generate_series(1, 7) AS d;

INSERT INTO clients (id, business_id, name, phone, email, consent, consent_at)
SELECT md5('client' || n)::uuid,
       md5('business' || CASE WHEN n <= 20000 THEN 1 ELSE 2 + (n - 20001) % 99 END)::uuid,
       'Client ' || n, '+3519' || lpad(n::text, 8, '0'), 'client' || n || '@bench.example', true, now()
  FROM generate_series(1, 100000) AS n;

-- One row per appointment n: its business, staff member, client, service and slot by formula.
WITH numbered AS (
  SELECT n,
         CASE WHEN n <= 200000 THEN 1 + (n - 1) % 100 ELSE 101 + (n - 200001) % 900 END AS staff_no,
         CASE WHEN n <= 200000 THEN (n - 1) / 100 ELSE (n - 200001) / 900 END AS slot,
         CASE WHEN n <= 200000 THEN interval '8 hours' ELSE interval '12 hours' END AS spacing
    FROM generate_series(1, 1000000) AS n
), placed AS (
  SELECT n, staff_no, slot,
         CASE WHEN staff_no <= 100 THEN 1 ELSE 2 + (staff_no - 101) % 99 END AS business_no,
         timestamptz '2025-01-01 08:00Z' + slot * spacing AS starts_at
    FROM numbered
), described AS (
  SELECT p.*,
         CASE WHEN business_no = 1 THEN 1 + (n - 1) % 20000
              ELSE 20001 + (business_no - 2) + 99 * ((n - 200001) % 808) END AS client_no,
         1 + n % 5 AS service_no
    FROM placed p
)
INSERT INTO appointments (id, business_id, staff_id, service_id, service_name, client_id, status, starts_at, ends_at,
                          duration_min, price_cents, currency, source, code, created_at, updated_at)
SELECT md5('appointment' || d.n)::uuid, s.business_id, md5('staff' || d.staff_no)::uuid, s.id, s.name,
       md5('client' || d.client_no)::uuid,
       CASE d.n % 20 WHEN 0 THEN 'CANCELLED' WHEN 1 THEN 'NO_SHOW' WHEN 2 THEN 'PENDING'
            ELSE CASE WHEN d.starts_at < now() THEN 'COMPLETED' ELSE 'CONFIRMED' END END,
       d.starts_at, d.starts_at + s.duration_min * interval '1 minute', s.duration_min, s.price_cents, 'EUR',
       CASE WHEN d.n % 3 = 0 THEN 'api' ELSE 'dashboard' END,
       'B' || lpad(to_hex(d.n), 7, '0'), d.starts_at - interval '7 days', d.starts_at - interval '7 days'
  FROM described d
  JOIN services s ON s.id = md5('service' || d.business_no || '-' || d.service_no)::uuid;

-- One endpoint per business, subscribed to every notice type. The address is set per run, to
-- the loopback receiver of the notices scenario.
INSERT INTO webhook_endpoints (id, business_id, url, events, secret, enabled, created_by_member_id)
SELECT md5('endpoint' || b)::uuid, md5('business' || b)::uuid, 'http://127.0.0.1:9/unset',
       ARRAY['appointment.created', 'appointment.confirmed', 'appointment.cancelled', 'appointment.rescheduled',
             'client.created', 'payment.received', 'sale.created'],
       'whsec_' || encode(decode(md5('secret-a' || b) || md5('secret-b' || b), 'hex'), 'base64'),
       true, md5('member' || b)::uuid
  FROM generate_series(1, 100) AS b;

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
-- The rows carry the instants written here: the change clock's trigger (D27) would stamp each
-- row with now() and update its business's clock row once per row, a million times.
SET app.given_stamps = 'on';

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
-- the loopback receiver of the notices scenario. Pinned to the current version (CURRENT_API_VERSION
-- of libs/contract/src/versions/api-versions.ts, docs/design-record.md#d22).
INSERT INTO webhook_endpoints (id, business_id, url, events, secret, enabled, created_by_member_id, api_version)
SELECT md5('endpoint' || b)::uuid, md5('business' || b)::uuid, 'http://127.0.0.1:9/unset',
       ARRAY['appointment.created', 'appointment.confirmed', 'appointment.cancelled', 'appointment.rescheduled',
             'client.created', 'payment.received', 'sale.created'],
       'whsec_' || encode(decode(md5('secret-a' || b) || md5('secret-b' || b), 'hex'), 'base64'),
       true, md5('member' || b)::uuid, '1.4.0'
  FROM generate_series(1, 100) AS b;

-- The availability business (S7): 200,000 appointments on 20 staff with a salon's week, so free
-- times are the gaps a real diary leaves. Its ids use the number 101 (staff 1001-1020, clients
-- 100001-100100), apart from the 100 businesses above, which the other scenarios pick from.
-- Hours: Monday to Friday 09:00-13:00 and 14:00-19:00 (Lisbon), even-numbered staff also
-- Saturday 09:00-14:00. Six appointments a working day per member (09:00, 10:00, 11:30, 14:00,
-- 15:30, 17:00, of 30, 45 or 60 minutes; one in ten cancelled), Monday 2024-01-01 to May 2030.
-- Every Wednesday 16:00-17:00 is blocked (a team meeting) and staff 1003 is away one week in eight.
INSERT INTO businesses (id, slug, name, timezone, country, currency, locale, plan, auto_confirm, notification_email)
VALUES (md5('business101')::uuid, 'bench-availability', 'Bench availability', 'Europe/Lisbon', 'PT', 'EUR', 'pt-PT', 'TEAM',
        true, 'desk@bench-availability.example');

INSERT INTO members (id, business_id, name, email, role)
VALUES (md5('member101')::uuid, md5('business101')::uuid, 'Owner 101', 'owner@bench-availability.example', 'OWNER');

-- Service 1 (30 min) is the one S7 asks about; staff 1017-1020 perform only services 1 and 3.
INSERT INTO services (id, business_id, name, duration_min, price_cents, category, active)
SELECT md5('service101-' || s)::uuid, md5('business101')::uuid, 'Service ' || s, (ARRAY[30, 45, 60])[s], 2000 + 500 * s, 'Bench', true
  FROM generate_series(1, 3) AS s;

INSERT INTO staff (id, business_id, name, active)
SELECT md5('staff' || n)::uuid, md5('business101')::uuid, 'Staff ' || n, true FROM generate_series(1001, 1020) AS n;

INSERT INTO staff_services (staff_id, service_id, business_id)
SELECT md5('staff' || n)::uuid, md5('service101-' || s)::uuid, md5('business101')::uuid
  FROM generate_series(1017, 1020) AS n, unnest(ARRAY[1, 3]) AS s;

INSERT INTO staff_working_hours (id, business_id, staff_id, weekday, start_time, end_time)
SELECT md5('hours' || n || '-' || d || '-' || h.part)::uuid, md5('business101')::uuid, md5('staff' || n)::uuid, d, h.start_time, h.end_time
  FROM generate_series(1001, 1020) AS n, generate_series(1, 5) AS d,
       (VALUES (1, '09:00'::time, '13:00'::time), (2, '14:00'::time, '19:00'::time)) AS h(part, start_time, end_time)
UNION ALL
SELECT md5('hours' || n || '-6-1')::uuid, md5('business101')::uuid, md5('staff' || n)::uuid, 6, '09:00', '14:00'
  FROM generate_series(1002, 1020, 2) AS n;

INSERT INTO clients (id, business_id, name, phone, email, consent, consent_at)
SELECT md5('client' || n)::uuid, md5('business101')::uuid, 'Client ' || n, '+3519' || lpad(n::text, 8, '0'),
       'client' || n || '@bench.example', true, now()
  FROM generate_series(100001, 100100) AS n;

WITH numbered AS (
  SELECT n, 1001 + (n - 1) % 20 AS staff_no, (n - 1) / 20 AS j FROM generate_series(1, 200000) AS n
), placed AS (
  SELECT n, staff_no,
         -- Working day number j / 6 as Monday-to-Friday dates from 2024-01-01 (a Monday).
         date '2024-01-01' + ((j / 6) / 5) * 7 + (j / 6) % 5 AS day,
         (ARRAY['09:00', '10:00', '11:30', '14:00', '15:30', '17:00']::time[])[1 + j % 6] AS at,
         CASE WHEN staff_no >= 1017 THEN (ARRAY[1, 3])[1 + n % 2] ELSE 1 + n % 3 END AS service_no
    FROM numbered
)
INSERT INTO appointments (id, business_id, staff_id, service_id, service_name, client_id, status, starts_at, ends_at,
                          duration_min, price_cents, currency, source, code, created_at, updated_at)
SELECT md5('appointment-avail' || p.n)::uuid, md5('business101')::uuid, md5('staff' || p.staff_no)::uuid, s.id, s.name,
       md5('client' || (100001 + p.n % 100))::uuid,
       CASE WHEN p.n % 10 = 0 THEN 'CANCELLED'
            WHEN (p.day + p.at) AT TIME ZONE 'Europe/Lisbon' < now() THEN 'COMPLETED' ELSE 'CONFIRMED' END,
       (p.day + p.at) AT TIME ZONE 'Europe/Lisbon',
       (p.day + p.at) AT TIME ZONE 'Europe/Lisbon' + s.duration_min * interval '1 minute',
       s.duration_min, s.price_cents, 'EUR', 'dashboard', 'V' || lpad(to_hex(p.n), 7, '0'),
       (p.day + p.at) AT TIME ZONE 'Europe/Lisbon' - interval '14 days', (p.day + p.at) AT TIME ZONE 'Europe/Lisbon' - interval '14 days'
  FROM placed p
  JOIN services s ON s.id = md5('service101-' || p.service_no)::uuid;

INSERT INTO staff_time_blocks (id, business_id, staff_id, starts_at, ends_at)
SELECT md5('block' || n || '-' || w)::uuid, md5('business101')::uuid, md5('staff' || n)::uuid,
       (date '2024-01-03' + w * 7 + time '16:00') AT TIME ZONE 'Europe/Lisbon',
       (date '2024-01-03' + w * 7 + time '17:00') AT TIME ZONE 'Europe/Lisbon'
  FROM generate_series(1001, 1020) AS n, generate_series(0, 334) AS w
UNION ALL
SELECT md5('block-away-1003-' || w)::uuid, md5('business101')::uuid, md5('staff1003')::uuid,
       (date '2024-01-01' + w * 56) AT TIME ZONE 'Europe/Lisbon', (date '2024-01-08' + w * 56) AT TIME ZONE 'Europe/Lisbon'
  FROM generate_series(0, 41) AS w;

import { InvalidArgumentError, Option, type Command } from 'commander';
import { BusinessesService, type NewBusiness } from '#core/businesses/businesses.service.js';
import { PLANS, type BusinessEntity } from '#database/entities/business.entity.js';
import { MEMBER_ROLES, type MemberEntity } from '#database/entities/member.entity.js';
import type { CommandContext } from './command-context.js';
import { recordOperatorChange } from './operator-audit.js';

/** The options of `business create` are the fields of a new business. */
type CreateOptions = NewBusiness;

interface PlanOptions {
  business: string;
  plan: string;
}

interface SettingsOptions {
  business: string;
  stepMin: number;
}

interface MemberAddOptions {
  business: string;
  name: string;
  email: string;
  role: string;
}

/** A whole number; its range is the service's rule, which names it in the error. */
function parseWholeNumber(value: string): number {
  if (!/^-?\d+$/.test(value)) throw new InvalidArgumentError('Expected a whole number.');
  return Number(value);
}

function parseBoolean(value: string): boolean {
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new InvalidArgumentError('Expected true or false.');
}

function presentBusiness(business: BusinessEntity): object {
  return {
    id: business.id,
    slug: business.slug,
    name: business.name,
    timezone: business.timezone,
    country: business.country,
    currency: business.currency,
    locale: business.locale,
    plan: business.plan,
    autoConfirm: business.autoConfirm,
    notificationEmail: business.notificationEmail,
    stepMin: business.stepMin,
    createdAt: business.createdAt,
    updatedAt: business.updatedAt,
  };
}

function presentMember(member: MemberEntity, businessSlug: string): object {
  return {
    id: member.id,
    business: businessSlug,
    name: member.name,
    email: member.email,
    role: member.role,
    createdAt: member.createdAt,
  };
}

export function registerBusinessCommands(program: Command, context: CommandContext): void {
  const business = program.command('business').description('businesses and their members');

  business
    .command('create')
    .description('create a business (nothing else); prints it')
    .requiredOption('--slug <slug>', 'unique address name, e.g. salon-lisboa')
    .requiredOption('--name <name>', 'display name')
    .requiredOption('--timezone <tz>', 'IANA time zone, e.g. Europe/Lisbon')
    .requiredOption('--country <cc>', 'ISO 3166-1 alpha-2 code, e.g. PT')
    .requiredOption('--currency <cur>', 'ISO 4217 code, e.g. EUR')
    .addOption(new Option('--plan <plan>', 'plan').choices(PLANS).makeOptionMandatory())
    .option('--locale <locale>', 'BCP 47 language tag, e.g. pt-PT')
    .option('--auto-confirm <bool>', 'confirm bookings at once (default true)', parseBoolean)
    .option('--notification-email <email>', 'address that receives booking e-mails')
    .action((options: CreateOptions) =>
      context.run(async (app) => {
        const created = await app.get(BusinessesService).create({
          slug: options.slug,
          name: options.name,
          timezone: options.timezone,
          country: options.country,
          currency: options.currency,
          plan: options.plan,
          locale: options.locale,
          autoConfirm: options.autoConfirm,
          notificationEmail: options.notificationEmail,
        });
        await recordOperatorChange(app, created, 'business.create', `${created.slug} (${created.plan} plan)`);
        return presentBusiness(created);
      }),
    );

  business
    .command('plan')
    .description('change the plan of a business; prints it')
    .requiredOption('--business <slug>', 'business slug')
    .addOption(new Option('--plan <plan>', 'new plan').choices(PLANS).makeOptionMandatory())
    .action((options: PlanOptions) =>
      context.run(async (app) => {
        const changed = await app.get(BusinessesService).changePlan(options.business, options.plan);
        await recordOperatorChange(app, changed, 'business.plan', changed.plan);
        return presentBusiness(changed);
      }),
    );

  business
    .command('settings')
    .description('change the settings partners see; prints the business')
    .requiredOption('--business <slug>', 'business slug')
    .requiredOption('--step-min <minutes>', 'the availability grid, 5 to 60 minutes (GET /availability)', parseWholeNumber)
    .action((options: SettingsOptions) =>
      context.run(async (app) => {
        const changed = await app.get(BusinessesService).changeSettings(options.business, { stepMin: options.stepMin });
        await recordOperatorChange(app, changed, 'business.settings', `stepMin ${options.stepMin}`);
        return presentBusiness(changed);
      }),
    );

  const member = business.command('member').description('members of a business (who may create keys)');

  member
    .command('add')
    .description('add a member; prints it')
    .requiredOption('--business <slug>', 'business slug')
    .requiredOption('--name <name>', 'full name')
    .requiredOption('--email <email>', 'e-mail address, unique in the business')
    .addOption(new Option('--role <role>', 'role').choices(MEMBER_ROLES).makeOptionMandatory())
    .action((options: MemberAddOptions) =>
      context.run(async (app) => {
        const businesses = app.get(BusinessesService);
        const found = await businesses.getBySlug(options.business);
        const added = await businesses.addMember(found.id, {
          name: options.name,
          email: options.email,
          role: options.role,
        });
        await recordOperatorChange(app, found, 'member.add', `${added.email} (${added.role})`);
        return presentMember(added, found.slug);
      }),
    );
}

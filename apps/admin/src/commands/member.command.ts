import type { Command } from 'commander';
import { BusinessesService } from '#core/businesses/businesses.service.js';
import { ConsoleLinks } from '#core/console-auth/console-links.service.js';
import type { CommandContext } from './command-context.js';
import { recordOperatorChange } from './operator-audit.js';

interface MemberOptions {
  business: string;
}

interface SignInLinkOptions {
  business: string;
  email: string;
}

export function registerMemberCommands(program: Command, context: CommandContext): void {
  const member = program.command('member').description("a business's members, and their sign-in links to the owner's console");

  member
    .command('list')
    .description("list a business's members with their roles (OWNER and PARTNER may use the console)")
    .requiredOption('--business <slug>', 'business slug')
    .action((options: MemberOptions) =>
      context.run(async (app) => {
        const { business, members } = await app.get(BusinessesService).members(options.business);
        return {
          business: business.slug,
          members: members.map((m) => ({ id: m.id, name: m.name, email: m.email, role: m.role, createdAt: m.createdAt.toISOString() })),
        };
      }),
    );

  member
    .command('sign-in-link')
    .description("print a one-time link (15 minutes) that signs an OWNER or PARTNER in to the owner's console; nothing is e-mailed")
    .requiredOption('--business <slug>', 'business slug')
    .requiredOption('--email <email>', "the member's e-mail")
    .action((options: SignInLinkOptions) =>
      context.run(async (app) => {
        const link = await app.get(ConsoleLinks).linkFor(options.business, options.email);
        // Whoever holds the link signs in as the member: its owners see that one was printed.
        await recordOperatorChange(app, { slug: link.business }, 'member.sign-in-link', link.email);
        return link;
      }),
    );
}

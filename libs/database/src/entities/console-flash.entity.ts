import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A one-time message of the console (docs/design-record.md#d29): left by a POST for the page its
 * redirect leads to, in that session only, sealed with SECRETS_KEY (it may hold a new key), and
 * deleted when that page reads it or ten minutes later.
 */
@Entity({ name: 'console_flashes' })
@Index('console_flashes_session_idx', ['sessionId', 'path'])
@Index('console_flashes_created_idx', ['createdAt'])
export class ConsoleFlashEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  /** The console session's id (or the signed-out visitor's form cookie). */
  @Column({ name: 'session_id', type: 'text' })
  sessionId: string;

  /** The page that shows it: the path the POST's 303 names. */
  @Column({ type: 'text' })
  path: string;

  @Column({ type: 'text' })
  sealed: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;
}

/** Team invitations and the team audit log (docs/decisions/teams.md). Members live in account_members. */
import { sql } from 'drizzle-orm';
import {
  bigserial,
  check,
  index,
  jsonb,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { memberRole } from './account-members';
import { users } from './users';

export const inviteStatus = pgEnum('invite_status', [
  'pending',
  'approved',
  'rejected',
  'cancelled',
  'expired',
]);

/**
 * An invitation to join a team, to a user (by user code, or by an e-mail address that belongs to a user) or to an
 * e-mail address nobody has registered yet; the latter reaches the user once the address is confirmed.
 */
export const teamInvites = pgTable(
  'team_invites',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    inviterUserId: uuid('inviter_user_id').references(() => users.id, { onDelete: 'set null' }),
    inviteeUserId: uuid('invitee_user_id').references(() => users.id, { onDelete: 'cascade' }),
    /** lowercased; set when invited by e-mail address */
    inviteeEmail: text('invitee_email'),
    role: memberRole('role').notNull(),
    status: inviteStatus('status').notNull().default('pending'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    decidedAt: timestamp('decided_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    check(
      'team_invites_has_invitee',
      sql`${t.inviteeUserId} is not null or ${t.inviteeEmail} is not null`,
    ),
    check('team_invites_not_owner', sql`${t.role} <> 'owner'`),
    // One pending invitation per team and invitee: a second addMember answers 10305 instead of a duplicate.
    uniqueIndex('team_invites_pending_user_unique')
      .on(t.accountId, t.inviteeUserId)
      .where(sql`${t.status} = 'pending' and ${t.inviteeUserId} is not null`),
    uniqueIndex('team_invites_pending_email_unique')
      .on(t.accountId, t.inviteeEmail)
      .where(sql`${t.status} = 'pending' and ${t.inviteeEmail} is not null`),
    index('team_invites_user_idx').on(t.inviteeUserId),
    index('team_invites_email_idx').on(t.inviteeEmail),
  ],
);

export type TTeamInviteRow = typeof teamInvites.$inferSelect;

/** Append-only: who did what to a team account, when, from which IP. */
export const teamAuditLogs = pgTable(
  'team_audit_logs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    actorUserId: uuid('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** a method name (hub_generateApiKey …) or a lifecycle action written by the team services (team.create …) */
    action: text('action').notNull(),
    target: text('target'),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
    ip: text('ip'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('team_audit_logs_account_idx').on(t.accountId, t.createdAt.desc(), t.id.desc()),
    // The teams a user created lately, disbanded ones too (hub_createTeam's rolling limit).
    index('team_audit_logs_team_create_idx')
      .on(t.actorUserId, t.createdAt)
      .where(sql`${t.action} = 'team.create'`),
  ],
);

export type TTeamAuditLogRow = typeof teamAuditLogs.$inferSelect;

/**
 * Teams (issue 13): create, invite, roles, act as a team, leave, remove, disband (only with an empty wallet), the audit
 * log; on each database.
 */
import { randomUUID } from 'node:crypto';
import { ERROR_CATALOGUE, ERROR_CODES, MAX_OWNED_TEAMS } from '@rpc/contract';
import {
  accountMembers,
  accounts,
  apiKeys,
  moneyLedger,
  notices,
  ruLedger,
  teamAuditLogs,
  users,
} from '@rpc/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASES } from './helpers/databases';
import { createHarness, digest, uniqueEmail, type THarness } from './helpers/harness';
import { linkOf } from './helpers/smtp';
import {
  deleteTeam,
  leaveTeam,
  removeMember,
  setMemberRole,
} from '../src/services/teams/membership';
import { ledgerWalletCents, postMoney } from '../src/services/wallet/post-money';

const DAY = 86_400_000;

describe.each(TEST_DATABASES)('teams on $name', ({ open }) => {
  let h: THarness;
  beforeAll(async () => {
    h = await createHarness(open);
  });
  afterAll(async () => {
    await h?.close();
  });

  async function user() {
    const s = await h.signUp();
    const [u] = await h.database.db.select().from(users).where(eq(users.email, s.email));
    return { ...s, userId: u!.id, accountId: u!.personalAccountId };
  }
  type TUser = Awaited<ReturnType<typeof user>>;

  async function ok<T>(p: Promise<{ ok: boolean; result?: T; error?: unknown }>): Promise<T> {
    const res = await p;
    if (!res.ok) throw new Error(JSON.stringify(res.error));
    return res.result as T;
  }

  async function newTeam(owner: TUser, teamName = 'Core team') {
    return ok(h.call('hub_createTeam', { teamName }, { token: owner.token }));
  }

  /** Invites `who` by e-mail with `role` and accepts; answers the invite id. */
  async function join(
    owner: TUser,
    teamId: string,
    who: TUser,
    role: 'admin' | 'billing' | 'viewer',
  ) {
    const invite = await ok(
      h.call('hub_addMember', { teamId, email: who.email, role }, { token: owner.token }),
    );
    await ok(h.call('hub_approveInvite', { inviteId: invite.inviteId }, { token: who.token }));
    return invite.inviteId;
  }

  async function noticesOf(userId: string, type: string) {
    const rows = await h.database.db.select().from(notices).where(eq(notices.userId, userId));
    return rows.filter((n) => n.type === type);
  }

  /** Each member's role in a team, by user id. */
  async function rolesOf(teamId: string) {
    const rows = await h.database.db
      .select({ userId: accountMembers.userId, role: accountMembers.role })
      .from(accountMembers)
      .where(eq(accountMembers.accountId, teamId));
    return new Map(rows.map((r) => [r.userId, r.role]));
  }

  async function logsOf(teamId: string) {
    return h.database.db.select().from(teamAuditLogs).where(eq(teamAuditLogs.accountId, teamId));
  }

  it('creates a team owned by the caller, lists it with role and counts, and the profile shows it', async () => {
    const me = await user();
    const team = await newTeam(me, '  Rocket  ');
    expect(team).toMatchObject({ teamName: 'Rocket', role: 'owner', memberCount: 1, note: '' });
    const [row] = await h.database.db.select().from(accounts).where(eq(accounts.id, team.teamId));
    expect(row!.kind).toBe('team');
    const mine = await ok(h.call('hub_getMyTeam', { page: 1, perPage: 1000 }, { token: me.token }));
    expect(mine.list.map((t) => t.teamId)).toEqual([team.teamId]);
    expect(mine.total).toBe(1);
    const profile = await ok(h.call('hub_getUserProfile', {}, { token: me.token }));
    expect(profile).toMatchObject({
      hasTeam: true,
      userType: 'user',
      teamList: [{ teamId: team.teamId, teamName: 'Rocket', role: 'owner' }],
    });
    const logs = await logsOf(team.teamId);
    expect(logs.map((l) => [l.action, l.actorUserId])).toEqual([['team.create', me.userId]]);
  });

  it('pages the team list and refuses a 21st owned team', async () => {
    const me = await user();
    // Straight into the tables: 20 sign-ups' worth of teams through the API would only cost time.
    for (let i = 0; i < MAX_OWNED_TEAMS - 1; i += 1) {
      const [t] = await h.database.db
        .insert(accounts)
        .values({ kind: 'team', name: `T${i}` })
        .returning();
      await h.database.db
        .insert(accountMembers)
        .values({ accountId: t!.id, userId: me.userId, role: 'owner', createdAt: new Date(i) });
    }
    const last = await newTeam(me, 'Twentieth');
    const refused = await h.call(
      'hub_createTeam',
      { teamName: 'One too many' },
      { token: me.token },
    );
    expect(refused.error?.code).toBe(ERROR_CODES.TEAM_OWNED_LIMIT);
    const page2 = await ok(h.call('hub_getMyTeam', { page: 2, perPage: 15 }, { token: me.token }));
    expect(page2.total).toBe(MAX_OWNED_TEAMS);
    expect(page2.list).toHaveLength(5);
    expect(page2.list.at(-1)!.teamId).toBe(last.teamId);
  });

  it('counts teams created in the last 30 days, disbanded ones too (no create-claim-disband loop)', async () => {
    const me = await user();
    // 19 teams created and disbanded today (straight into the audit log, as hub_createTeam writes it) …
    for (let i = 0; i < MAX_OWNED_TEAMS - 1; i += 1) {
      const [t] = await h.database.db
        .insert(accounts)
        .values({ kind: 'team', name: `Gone ${i}`, disbandedAt: new Date(h.clock.now()) })
        .returning();
      await h.database.db.insert(teamAuditLogs).values({
        accountId: t!.id,
        actorUserId: me.userId,
        action: 'team.create',
        target: `Gone ${i}`,
        createdAt: new Date(h.clock.now() - i * 3_600_000),
      });
    }
    // … leave room for one more, though the user owns none.
    const twentieth = await newTeam(me, 'Twentieth');
    await ok(h.call('hub_deleteTeam', { teamId: twentieth.teamId }, { token: me.token }));
    const refused = await h.call('hub_createTeam', { teamName: 'Again' }, { token: me.token });
    expect(refused.error?.code).toBe(ERROR_CODES.TEAM_OWNED_LIMIT);
    // Thirty days after the oldest creations, room again.
    h.clock.advance(30 * DAY - 18 * 3_600_000);
    await newTeam(me, 'A month later');
  });

  it('refuses bad team input with 10004 and changes nothing', async () => {
    const me = await user();
    const team = await newTeam(me);
    const bad: Array<[string, Record<string, unknown>]> = [
      ['hub_createTeam', { teamName: '' }],
      ['hub_createTeam', { teamName: 'x'.repeat(41) }],
      ['hub_createTeam', { teamName: 'evil\u202Ename' }],
      ['hub_createTeam', { teamName: 'ok', note: 'n'.repeat(201) }],
      ['hub_editTeamName', { teamId: team.teamId, teamName: '   ' }],
      ['hub_editTeamName', { teamId: 'not-a-uuid', teamName: 'x' }],
      ['hub_addMember', { teamId: team.teamId }],
      ['hub_addMember', { teamId: team.teamId, email: 'a@b.co', userCode: 'ABCDEFGHJK' }],
      ['hub_addMember', { teamId: team.teamId, email: 'not an address' }],
      ['hub_addMember', { teamId: team.teamId, userCode: 'ILLEGAL!!!' }],
      ['hub_addMember', { teamId: team.teamId, email: 'a@b.co', role: 'owner' }],
      ['hub_setMemberRole', { teamId: team.teamId, userId: me.userId, role: 'god' }],
      ['hub_getTeamLogs', { teamId: team.teamId, action: "x' or 1=1" }],
      ['hub_getTeamLogs', { teamId: team.teamId, startTime: 10, endTime: 5 }],
      ['hub_getTeamLogs', { teamId: team.teamId, perPage: 101 }],
      ['hub_getMyTeam', { perPage: 1001 }],
      ['hub_approveInvite', { inviteId: 12 }],
      ['hub_editTeamNote', { teamId: team.teamId, note: { $ne: 1 } }],
    ];
    for (const [method, params] of bad) {
      const res = await h.raw({ method, params, id: 1 }, { token: me.token });
      expect(res.error?.code, `${method} ${JSON.stringify(params)}`).toBe(
        ERROR_CODES.INVALID_PARAMS,
      );
    }
    const [row] = await h.database.db.select().from(accounts).where(eq(accounts.id, team.teamId));
    expect(row!.name).toBe('Core team');
    const mine = await ok(h.call('hub_getMyTeam', {}, { token: me.token }));
    expect(mine.total).toBe(1);
  });

  it('invites by e-mail: the invitee sees it, accepts with the role, the owner hears of it', async () => {
    const owner = await user();
    const bob = await user();
    const team = await newTeam(owner, 'Acme');
    const invite = await ok(
      h.call(
        'hub_addMember',
        { teamId: team.teamId, email: bob.email.toUpperCase(), role: 'billing' },
        { token: owner.token },
      ),
    );
    expect(invite).toMatchObject({ invitee: bob.email, role: 'billing' });
    const mail = await h.smtp.nextMailTo(bob.email);
    expect(mail.text).toContain('http://console.test/invite-member');
    expect(mail.text).toContain('Acme');

    const before = await ok(h.call('hub_getUserProfile', {}, { token: bob.token }));
    expect(before.hasInvite).toBe(true);
    const mine = await ok(h.call('hub_getMyInvite', {}, { token: bob.token }));
    expect(mine.list).toEqual([
      expect.objectContaining({ inviteId: invite.inviteId, teamName: 'Acme', role: 'billing' }),
    ]);
    const teamsSeen = await ok(
      h.call('hub_getTeamInvites', { teamId: team.teamId }, { token: owner.token }),
    );
    expect(teamsSeen.list.map((i) => i.inviteId)).toEqual([invite.inviteId]);

    const joined = await ok(
      h.call('hub_approveInvite', { inviteId: invite.inviteId }, { token: bob.token }),
    );
    expect(joined).toEqual({ teamId: team.teamId, teamName: 'Acme', role: 'billing' });
    const after = await ok(h.call('hub_getUserProfile', {}, { token: bob.token }));
    expect(after).toMatchObject({
      hasInvite: false,
      hasTeam: true,
      teamList: [{ teamId: team.teamId, role: 'billing' }],
    });
    const members = await ok(
      h.call('hub_getTeamMembers', { teamId: team.teamId }, { token: bob.token }),
    );
    expect(members.list.map((m) => [m.role, m.isYou])).toEqual([
      ['owner', false],
      ['billing', true],
    ]);
    const told = await noticesOf(owner.userId, 'team_approve_invite');
    expect(told).toHaveLength(1);
    expect(told[0]!.teamId).toBe(team.teamId);
    expect(told[0]!.expand).toMatchObject({ teamName: 'Acme' });
    expect(await noticesOf(bob.userId, 'team_approve_invite')).toHaveLength(0);
    // Answered once: a second answer is refused, and nobody joins twice.
    const again = await h.call(
      'hub_approveInvite',
      { inviteId: invite.inviteId },
      { token: bob.token },
    );
    expect(again.error?.code).toBe(ERROR_CODES.TEAM_INVITE_INVALID);
    expect((await logsOf(team.teamId)).map((l) => l.action)).toEqual(
      expect.arrayContaining(['team.create', 'hub_addMember', 'team.join']),
    );
  });

  it('invites by user code; refuses unknown codes, self, duplicates and members', async () => {
    const owner = await user();
    const carol = await user();
    const team = await newTeam(owner);
    const { userCode } = await ok(h.call('hub_getUserCode', {}, { token: carol.token }));
    expect(userCode).toMatch(/^[0-9A-HJKMNP-TV-Z]{10}$/);
    expect((await ok(h.call('hub_getUserCode', {}, { token: carol.token }))).userCode).toBe(
      userCode,
    );
    const own = await ok(h.call('hub_getUserCode', {}, { token: owner.token }));

    const unknown = await h.call(
      'hub_addMember',
      { teamId: team.teamId, userCode: userCode === '0000000000' ? '1111111111' : '0000000000' },
      { token: owner.token },
    );
    expect(unknown.error?.code).toBe(ERROR_CODES.TEAM_USER_CODE_UNKNOWN);
    const self = await h.call(
      'hub_addMember',
      { teamId: team.teamId, userCode: own.userCode },
      { token: owner.token },
    );
    expect(self.error?.code).toBe(ERROR_CODES.TEAM_INVITE_SELF);
    const selfMail = await h.call(
      'hub_addMember',
      { teamId: team.teamId, email: owner.email },
      { token: owner.token },
    );
    expect(selfMail.error?.code).toBe(ERROR_CODES.TEAM_INVITE_SELF);

    const invite = await ok(
      h.call(
        'hub_addMember',
        { teamId: team.teamId, userCode: userCode.toLowerCase() },
        { token: owner.token },
      ),
    );
    expect(invite.role).toBe('viewer');
    const twice = await h.call(
      'hub_addMember',
      { teamId: team.teamId, email: carol.email },
      { token: owner.token },
    );
    expect(twice.error?.code).toBe(ERROR_CODES.TEAM_INVITE_PENDING);
    await ok(h.call('hub_approveInvite', { inviteId: invite.inviteId }, { token: carol.token }));
    const member = await h.call(
      'hub_addMember',
      { teamId: team.teamId, userCode },
      { token: owner.token },
    );
    expect(member.error?.code).toBe(ERROR_CODES.TEAM_ALREADY_MEMBER);
  });

  it('an address nobody registered yet gets a mail; the invitation waits for that address to be confirmed', async () => {
    const owner = await user();
    const team = await newTeam(owner, 'Waiting room');
    const email = uniqueEmail('later');
    const invite = await ok(
      h.call('hub_addMember', { teamId: team.teamId, email }, { token: owner.token }),
    );
    await h.smtp.nextMailTo(email);

    const reg = await h.call('hub_register', {
      email,
      password: digest('pw pw pw pw'),
      confirmPassword: digest('pw pw pw pw'),
    });
    expect(reg.ok).toBe(true);
    // Unconfirmed, the address is not proven and cannot sign in; once confirmed the invitation is there.
    const code = linkOf(await h.smtp.nextMailTo(email)).searchParams.get('code')!;
    await ok(h.call('hub_emailConfirm', { code }));
    const login = await ok(h.call('hub_login', { email, password: digest('pw pw pw pw') }));
    const mine = await ok(h.call('hub_getMyInvite', {}, { token: login.token }));
    expect(mine.list.map((i) => i.inviteId)).toEqual([invite.inviteId]);
    await ok(h.call('hub_approveInvite', { inviteId: invite.inviteId }, { token: login.token }));
    const members = await ok(
      h.call('hub_getTeamMembers', { teamId: team.teamId }, { token: owner.token }),
    );
    expect(members.list.map((m) => m.email)).toContain(email);
  });

  it('declined, withdrawn and lapsed invitations cannot be accepted', async () => {
    const owner = await user();
    const dan = await user();
    const team = await newTeam(owner);
    const a = await ok(
      h.call('hub_addMember', { teamId: team.teamId, email: dan.email }, { token: owner.token }),
    );
    await ok(h.call('hub_rejectInvite', { inviteId: a.inviteId }, { token: dan.token }));
    expect(
      (await h.call('hub_approveInvite', { inviteId: a.inviteId }, { token: dan.token })).error
        ?.code,
    ).toBe(ERROR_CODES.TEAM_INVITE_INVALID);

    const b = await ok(
      h.call('hub_addMember', { teamId: team.teamId, email: dan.email }, { token: owner.token }),
    );
    await ok(
      h.call(
        'hub_cancelInvite',
        { teamId: team.teamId, inviteId: b.inviteId },
        { token: owner.token },
      ),
    );
    expect(
      (await h.call('hub_approveInvite', { inviteId: b.inviteId }, { token: dan.token })).error
        ?.code,
    ).toBe(ERROR_CODES.TEAM_INVITE_INVALID);
    const cancelTwice = await h.call(
      'hub_cancelInvite',
      { teamId: team.teamId, inviteId: b.inviteId },
      { token: owner.token },
    );
    expect(cancelTwice.error?.code).toBe(ERROR_CODES.NOT_FOUND);

    const c = await ok(
      h.call('hub_addMember', { teamId: team.teamId, email: dan.email }, { token: owner.token }),
    );
    h.clock.advance(7 * DAY + 1);
    expect((await ok(h.call('hub_getMyInvite', {}, { token: dan.token }))).list).toEqual([]);
    expect(
      (await h.call('hub_approveInvite', { inviteId: c.inviteId }, { token: dan.token })).error
        ?.code,
    ).toBe(ERROR_CODES.TEAM_INVITE_INVALID);
    // The lapsed one does not block a new invitation.
    const d = await h.call(
      'hub_addMember',
      { teamId: team.teamId, email: dan.email },
      { token: owner.token },
    );
    expect(d.ok).toBe(true);
    // Someone else cannot answer it.
    const eve = await user();
    expect(
      (await h.call('hub_approveInvite', { inviteId: d.result!.inviteId }, { token: eve.token }))
        .error?.code,
    ).toBe(ERROR_CODES.TEAM_INVITE_INVALID);
  });

  it('roles: viewer reads, billing pays, admin manages keys and lower members, the dispatcher refuses the rest', async () => {
    const owner = await user();
    const admin = await user();
    const billing = await user();
    const viewer = await user();
    const team = await newTeam(owner);
    await join(owner, team.teamId, admin, 'admin');
    await join(owner, team.teamId, billing, 'billing');
    await join(owner, team.teamId, viewer, 'viewer');
    const as = (u: TUser) => ({ token: u.token, teamId: team.teamId });

    const key = await ok(h.call('hub_generateApiKey', { name: 'by admin' }, as(admin)));
    const [row] = await h.database.db.select().from(apiKeys).where(eq(apiKeys.id, key.keyId));
    expect(row!.accountId).toBe(team.teamId);
    expect((await ok(h.call('hub_getApiKeys', {}, as(viewer)))).list.map((k) => k.keyId)).toContain(
      key.keyId,
    );

    const viewerKey = await h.call('hub_generateApiKey', { name: 'nope' }, as(viewer));
    expect(viewerKey.error?.code).toBe(ERROR_CODES.TEAM_ROLE_FORBIDDEN);
    const billingKey = await h.call('hub_deleteApiKey', { keyId: key.keyId }, as(billing));
    expect(billingKey.error?.code).toBe(ERROR_CODES.TEAM_ROLE_FORBIDDEN);
    expect((await h.call('hub_getViewUserPurchaseInfo', {}, as(billing))).ok).toBe(true);
    expect((await h.call('hub_getViewUserPurchaseInfo', {}, as(viewer))).error?.code).toBe(
      ERROR_CODES.TEAM_ROLE_FORBIDDEN,
    );
    expect((await h.call('hub_getUserWalletOverview', {}, as(viewer))).ok).toBe(true);

    const viewerInvite = await h.call(
      'hub_addMember',
      { teamId: team.teamId, email: uniqueEmail() },
      { token: viewer.token },
    );
    expect(viewerInvite.error?.code).toBe(ERROR_CODES.TEAM_ROLE_FORBIDDEN);
    const adminDisband = await h.call(
      'hub_deleteTeam',
      { teamId: team.teamId },
      { token: admin.token },
    );
    expect(adminDisband.error?.code).toBe(ERROR_CODES.TEAM_ROLE_FORBIDDEN);
    const adminLogs = await h.call(
      'hub_getTeamLogs',
      { teamId: team.teamId },
      { token: admin.token },
    );
    expect(adminLogs.ok).toBe(true);
    expect(
      (await h.call('hub_getTeamLogs', { teamId: team.teamId }, { token: billing.token })).error
        ?.code,
    ).toBe(ERROR_CODES.TEAM_ROLE_FORBIDDEN);

    const profile = await ok(h.call('hub_getTeamUserProfile', {}, as(billing)));
    expect(profile).toMatchObject({ role: 'billing', permissions: ['self', 'view', 'billing'] });
    expect((await h.call('hub_getTeamUserProfile', {}, { token: billing.token })).error?.code).toBe(
      ERROR_CODES.TEAM_NOT_A_TEAM,
    );

    // Rank: an admin removes a viewer, not the owner; nobody removes themselves.
    const upward = await h.call(
      'hub_removeMember',
      { teamId: team.teamId, userId: owner.userId },
      { token: admin.token },
    );
    expect(upward.error?.code).toBe(ERROR_CODES.TEAM_RANK_FORBIDDEN);
    const self = await h.call(
      'hub_removeMember',
      { teamId: team.teamId, userId: admin.userId },
      { token: admin.token },
    );
    expect(self.error?.code).toBe(ERROR_CODES.TEAM_RANK_FORBIDDEN);
    await ok(
      h.call(
        'hub_removeMember',
        { teamId: team.teamId, userId: viewer.userId },
        { token: admin.token },
      ),
    );
    const removed = await noticesOf(viewer.userId, 'team_remove_member');
    expect(removed).toHaveLength(1);
    expect(removed[0]!.expand).toMatchObject({ teamId: team.teamId });
    // The removed member's next call as the team is refused; their personal account still works.
    expect((await h.call('hub_getApiKeys', {}, as(viewer))).error?.code).toBe(
      ERROR_CODES.TEAM_FORBIDDEN,
    );
    expect((await h.call('hub_getApiKeys', {}, { token: viewer.token })).ok).toBe(true);

    // The audit log holds the key change made as the team, with who and from where, and no secret.
    const logs = await ok(
      h.call(
        'hub_getTeamLogs',
        { teamId: team.teamId, action: 'hub_generateApiKey' },
        { token: owner.token, ip: '203.0.113.9' },
      ),
    );
    expect(logs.list).toHaveLength(1);
    expect(logs.list[0]).toMatchObject({
      action: 'hub_generateApiKey',
      actorUserId: admin.userId,
      detail: { name: 'by admin' },
    });
    expect(logs.list[0]!.ip).toMatch(/^10\./);
    const byAdmin = await ok(
      h.call(
        'hub_getTeamLogs',
        { teamId: team.teamId, actorUserId: admin.userId, perPage: 1 },
        { token: owner.token },
      ),
    );
    expect(byAdmin.total).toBeGreaterThanOrEqual(3); // join, key, removal
    expect(byAdmin.list).toHaveLength(1);
    // Reads under an audited permission are not logged.
    const all = await logsOf(team.teamId);
    expect(all.map((l) => l.action)).not.toContain('hub_getViewUserPurchaseInfo');
    expect(all.map((l) => l.action)).not.toContain('hub_getTeamLogs');
  });

  it('hands the team over, refuses the owner leaving, lets a member leave with a notice', async () => {
    const owner = await user();
    const ann = await user();
    const ben = await user();
    const team = await newTeam(owner);
    await join(owner, team.teamId, ann, 'admin');
    await join(owner, team.teamId, ben, 'viewer');

    expect(
      (await h.call('hub_leaveTeam', { teamId: team.teamId }, { token: owner.token })).error?.code,
    ).toBe(ERROR_CODES.TEAM_OWNER_CANNOT_LEAVE);
    await ok(h.call('hub_leaveTeam', { teamId: team.teamId }, { token: ben.token }));
    const left = await noticesOf(owner.userId, 'team_member_leave');
    expect(left).toHaveLength(1);
    expect(await noticesOf(ann.userId, 'team_member_leave')).toHaveLength(1);
    expect((await logsOf(team.teamId)).map((l) => l.action)).toContain('team.leave');

    // ann (admin) cannot change roles; the owner hands over and becomes admin.
    expect(
      (
        await h.call(
          'hub_setMemberRole',
          { teamId: team.teamId, userId: ann.userId, role: 'owner' },
          { token: ann.token },
        )
      ).error?.code,
    ).toBe(ERROR_CODES.TEAM_ROLE_FORBIDDEN);
    await ok(
      h.call(
        'hub_setMemberRole',
        { teamId: team.teamId, userId: ann.userId, role: 'owner' },
        { token: owner.token },
      ),
    );
    expect(await rolesOf(team.teamId)).toEqual(
      new Map([
        [owner.userId, 'admin'],
        [ann.userId, 'owner'],
      ]),
    );
    await ok(h.call('hub_leaveTeam', { teamId: team.teamId }, { token: owner.token }));
  });

  it('an admin invites below admin only; invitations from a member removed or demoted since lapse', async () => {
    const owner = await user();
    const admin = await user();
    const xavier = await user();
    const yvonne = await user();
    const team = await newTeam(owner);
    await join(owner, team.teamId, admin, 'admin');
    const invite = (by: TUser, who: TUser, role: 'admin' | 'billing' | 'viewer') =>
      h.call('hub_addMember', { teamId: team.teamId, email: who.email, role }, { token: by.token });

    // Granting admin is a role change, the owner's alone (hub_setMemberRole).
    expect((await invite(admin, xavier, 'admin')).error?.code).toBe(
      ERROR_CODES.TEAM_RANK_FORBIDDEN,
    );
    const fromAdmin = await ok(invite(admin, xavier, 'billing'));
    const fromAdmin2 = await ok(invite(admin, yvonne, 'viewer'));
    const listed = async (who: TUser) =>
      (await ok(h.call('hub_getMyInvite', {}, { token: who.token }))).list.map((i) => i.inviteId);
    expect(await listed(xavier)).toEqual([fromAdmin.inviteId]);

    // The admin is removed: what they sent can no longer be accepted, nor is it listed.
    await ok(
      h.call(
        'hub_removeMember',
        { teamId: team.teamId, userId: admin.userId },
        { token: owner.token },
      ),
    );
    expect(await listed(xavier)).toEqual([]);
    const taken = await h.call(
      'hub_approveInvite',
      { inviteId: fromAdmin.inviteId },
      { token: xavier.token },
    );
    expect(taken.error?.code).toBe(ERROR_CODES.TEAM_INVITE_INVALID);
    // Cancelled, so the owner can invite the same people again (no "already pending").
    await ok(invite(owner, xavier, 'billing'));
    const again = await ok(invite(owner, yvonne, 'viewer'));
    expect(again.inviteId).not.toBe(fromAdmin2.inviteId);

    // Demoted: an admin made viewer no longer grants what they invited with.
    const zed = await user();
    await join(owner, team.teamId, admin, 'admin');
    const fromAdmin3 = await ok(invite(admin, zed, 'viewer'));
    await ok(
      h.call(
        'hub_setMemberRole',
        { teamId: team.teamId, userId: admin.userId, role: 'viewer' },
        { token: owner.token },
      ),
    );
    expect(
      (await h.call('hub_approveInvite', { inviteId: fromAdmin3.inviteId }, { token: zed.token }))
        .error?.code,
    ).toBe(ERROR_CODES.TEAM_INVITE_INVALID);
    const members = await h.database.db
      .select({ userId: accountMembers.userId })
      .from(accountMembers)
      .where(eq(accountMembers.accountId, team.teamId));
    expect(members.map((m) => m.userId).sort()).toEqual([owner.userId, admin.userId].sort());
  });

  it('acts on the role as it is when the change runs, not as the call began', async () => {
    const owner = await user();
    const ann = await user();
    const ben = await user();
    const team = await newTeam(owner);
    await join(owner, team.teamId, ann, 'admin');
    await join(owner, team.teamId, ben, 'viewer');
    const deps = h.server.deps;
    const staleAs = (u: TUser, role: 'owner' | 'admin') => ({
      userId: u.userId,
      account: { id: team.teamId, kind: 'team' as const, role },
      ip: '127.0.0.1',
    });
    // The owner hands the team to ann after ann's "leave" was admitted as admin: ann's row (now the owner's) stays.
    await ok(
      h.call(
        'hub_setMemberRole',
        { teamId: team.teamId, userId: ann.userId, role: 'owner' },
        { token: owner.token },
      ),
    );
    await expect(leaveTeam(deps, staleAs(ann, 'admin'))).rejects.toMatchObject({
      code: ERROR_CODES.TEAM_OWNER_CANNOT_LEAVE,
    });
    // The former owner, admitted as owner before the handover, can no longer hand over or remove as owner.
    await expect(
      setMemberRole(deps, staleAs(owner, 'owner'), {
        teamId: team.teamId,
        userId: ben.userId,
        role: 'owner',
      }),
    ).rejects.toMatchObject({ code: ERROR_CODES.TEAM_FORBIDDEN });
    await expect(
      removeMember(deps, staleAs(owner, 'owner'), { teamId: team.teamId, userId: ben.userId }),
    ).rejects.toMatchObject({ code: ERROR_CODES.TEAM_FORBIDDEN });
    await expect(deleteTeam(deps, staleAs(owner, 'owner'))).rejects.toMatchObject({
      code: ERROR_CODES.TEAM_FORBIDDEN,
    });
    expect(await rolesOf(team.teamId)).toEqual(
      new Map([
        [owner.userId, 'admin'],
        [ann.userId, 'owner'],
        [ben.userId, 'viewer'],
      ]),
    );
  });

  it('disbands: members told and gone, keys stop, invitations lapse, ledgers and the log stay', async () => {
    const owner = await user();
    const mia = await user();
    const team = await newTeam(owner, 'Short lived');
    await join(owner, team.teamId, mia, 'admin');
    const key = await ok(
      h.call('hub_generateApiKey', { name: 'team key' }, { token: mia.token, teamId: team.teamId }),
    );
    const pending = await ok(
      h.call(
        'hub_addMember',
        { teamId: team.teamId, email: uniqueEmail() },
        { token: owner.token },
      ),
    );

    await ok(h.call('hub_deleteTeam', { teamId: team.teamId }, { token: owner.token }));
    expect(await noticesOf(mia.userId, 'team_disband')).toHaveLength(1);
    expect(await noticesOf(owner.userId, 'team_disband')).toHaveLength(0);
    const [k] = await h.database.db.select().from(apiKeys).where(eq(apiKeys.id, key.keyId));
    expect(k!.deletedAt).not.toBeNull();
    expect(
      (await h.call('hub_getApiKeys', {}, { token: mia.token, teamId: team.teamId })).error?.code,
    ).toBe(ERROR_CODES.TEAM_FORBIDDEN);
    expect((await ok(h.call('hub_getMyTeam', {}, { token: owner.token }))).total).toBe(0);
    expect((await ok(h.call('hub_getUserProfile', {}, { token: mia.token }))).hasTeam).toBe(false);
    expect(
      (
        await h.call(
          'hub_cancelInvite',
          { teamId: team.teamId, inviteId: pending.inviteId },
          { token: owner.token },
        )
      ).error?.code,
    ).toBe(ERROR_CODES.TEAM_FORBIDDEN);
    expect(
      (await h.call('hub_deleteTeam', { teamId: team.teamId }, { token: owner.token })).error?.code,
    ).toBe(ERROR_CODES.TEAM_FORBIDDEN);
    const [acc] = await h.database.db.select().from(accounts).where(eq(accounts.id, team.teamId));
    expect(acc!.disbandedAt).not.toBeNull();
    expect((await logsOf(team.teamId)).map((l) => l.action)).toContain('team.disband');
  });

  it('disbanding is refused in arrears, changing nothing; once paid off, money left moves to the owner', async () => {
    const owner = await user();
    const mia = await user();
    const team = await newTeam(owner, 'Still owes');
    await join(owner, team.teamId, mia, 'billing');
    const key = await ok(
      h.call(
        'hub_generateApiKey',
        { name: 'team key' },
        { token: owner.token, teamId: team.teamId },
      ),
    );
    const post = (delta: number, kind: 'deposit' | 'payg') =>
      h.database.db.transaction((tx) =>
        postMoney(tx, {
          accountId: team.teamId,
          delta,
          kind,
          ref: `${kind}:${randomUUID()}`,
          at: h.clock.now(),
        }),
      );
    const disband = async () =>
      (await h.call('hub_deleteTeam', { teamId: team.teamId }, { token: owner.token })).error;
    const expectIntact = async () => {
      const [acc] = await h.database.db.select().from(accounts).where(eq(accounts.id, team.teamId));
      expect(acc!.disbandedAt).toBeNull();
      expect(await rolesOf(team.teamId)).toEqual(
        new Map([
          [owner.userId, 'owner'],
          [mia.userId, 'billing'],
        ]),
      );
      const [k] = await h.database.db.select().from(apiKeys).where(eq(apiKeys.id, key.keyId));
      expect(k!.deletedAt).toBeNull();
      expect(await noticesOf(mia.userId, 'team_disband')).toHaveLength(0);
      expect((await logsOf(team.teamId)).map((l) => l.action)).not.toContain('team.disband');
      // The wallet is what its ledger says: nothing written off, nothing moved.
      const [w] = await h.database.db
        .select({ cents: accounts.walletCents })
        .from(accounts)
        .where(eq(accounts.id, team.teamId));
      expect(w!.cents).toBe(await ledgerWalletCents(h.database.db, team.teamId));
    };

    // Pay-as-you-go usage billed past the balance: arrears are not written off by disbanding.
    await post(500, 'deposit');
    await post(-1734, 'payg');
    const owes = await disband();
    expect(owes).toMatchObject({
      code: ERROR_CODES.TEAM_IN_ARREARS,
      message: ERROR_CATALOGUE[ERROR_CODES.TEAM_IN_ARREARS].en,
      messageZh: ERROR_CATALOGUE[ERROR_CODES.TEAM_IN_ARREARS].zh,
    });
    await expectIntact();
    const overview = await ok(
      h.call('hub_getUserWalletOverview', {}, { token: owner.token, teamId: team.teamId }),
    );
    expect(overview.arrearsCents).toBe(1234);

    // Paid off and 3.21 over: the owner may disband, and what is left moves to the owner's personal wallet (it
    // would be stranded in a team nobody can act for), by one ledger entry on each side.
    await post(1234 + 321, 'deposit');
    const personalBefore = await ledgerWalletCents(h.database.db, owner.accountId);
    await ok(h.call('hub_deleteTeam', { teamId: team.teamId }, { token: owner.token }));
    const [acc] = await h.database.db.select().from(accounts).where(eq(accounts.id, team.teamId));
    expect(acc!.disbandedAt).not.toBeNull();
    expect(await ledgerWalletCents(h.database.db, team.teamId)).toBe(0);
    expect(await ledgerWalletCents(h.database.db, owner.accountId)).toBe(personalBefore + 321);
    const moved = await h.database.db
      .select({ accountId: moneyLedger.accountId, delta: moneyLedger.delta, ref: moneyLedger.ref })
      .from(moneyLedger)
      .where(eq(moneyLedger.kind, 'team_transfer'));
    expect(moved.filter((m) => m.ref === `disband:${team.teamId}`)).toEqual(
      expect.arrayContaining([
        { accountId: team.teamId, delta: -321, ref: `disband:${team.teamId}` },
        { accountId: owner.accountId, delta: 321, ref: `disband:${team.teamId}` },
      ]),
    );
    for (const id of [team.teamId, owner.accountId]) {
      const [w] = await h.database.db
        .select({ cents: accounts.walletCents })
        .from(accounts)
        .where(eq(accounts.id, id));
      expect(w!.cents).toBe(await ledgerWalletCents(h.database.db, id));
    }
    const told = await noticesOf(owner.userId, 'normal_success');
    expect(told.map((n) => n.content)).toContainEqual(expect.stringContaining('$3.21'));
  });

  it('team methods act on teams only: a personal account id is refused, never disbanded', async () => {
    const me = await user();
    for (const method of ['hub_deleteTeam', 'hub_getTeamMembers', 'hub_leaveTeam'] as const) {
      const res = await h.call(method, { teamId: me.accountId }, { token: me.token });
      expect(res.error?.code, method).toBe(ERROR_CODES.TEAM_FORBIDDEN);
    }
    const [acc] = await h.database.db.select().from(accounts).where(eq(accounts.id, me.accountId));
    expect(acc!.disbandedAt).toBeNull();
  });

  it('registers a team-type user whose first team gets the welcome gift', async () => {
    const email = uniqueEmail('teamuser');
    const mismatch = await h.call('hub_registerTeam', {
      email,
      password: digest('team password'),
      confirmPassword: digest('other password'),
      teamName: 'Night shift',
    });
    expect(mismatch.error?.code).toBe(ERROR_CODES.PASSWORD_MISMATCH);
    const reg = await ok(
      h.call('hub_registerTeam', {
        email,
        password: digest('team password'),
        confirmPassword: digest('team password'),
        teamName: 'Night shift',
        nickname: 'Night lead',
      }),
    );
    expect(reg.email).toBe(email);
    const code = linkOf(await h.smtp.nextMailTo(email)).searchParams.get('code')!;
    await ok(h.call('hub_emailConfirm', { code }));
    const login = await ok(h.call('hub_login', { email, password: digest('team password') }));
    const profile = await ok(h.call('hub_getUserProfile', {}, { token: login.token }));
    expect(profile.userType).toBe('team');
    expect(profile.nickname).toBe('Night lead');
    expect(profile.teamList).toEqual([
      expect.objectContaining({ teamName: 'Night shift', role: 'owner' }),
    ]);
    const teamId = profile.teamList[0]!.teamId;
    const gift = await h.database.db
      .select()
      .from(ruLedger)
      .where(and(eq(ruLedger.accountId, teamId), eq(ruLedger.kind, 'register_gift')));
    expect(gift).toHaveLength(1);
    const [u] = await h.database.db.select().from(users).where(eq(users.email, email));
    const personalGift = await h.database.db
      .select()
      .from(ruLedger)
      .where(eq(ruLedger.accountId, u!.personalAccountId));
    expect(personalGift).toHaveLength(0);
    // The stored password is a hash of the digest, never the digest itself.
    expect(u!.passwordHash).not.toContain(digest('team password'));
  });
});

import {
  AUDITED_PERMISSIONS,
  METHOD_NAMES,
  METHODS,
  PERMISSIONS,
  ROLE_PERMISSIONS,
  TEAM_ROLES,
  roleAllows,
  roleRank,
  type TMethodDef,
} from '@rpc/contract';
import { memberRole } from '@rpc/db';
import { describe, expect, it } from 'vitest';
import { auditDetail, auditTarget } from '../services/teams/audit-log';

const defs = METHOD_NAMES.map((n) => METHODS[n] as TMethodDef);

describe('the permission matrix (packages/contract/src/teams/permissions.ts)', () => {
  it('the database knows exactly the contract’s roles', () => {
    expect(memberRole.enumValues).toEqual([...TEAM_ROLES]);
  });

  it('grants what docs/decisions/teams.md says, and each role holds less than the one above it', () => {
    const table = Object.fromEntries(
      TEAM_ROLES.map((role) => [role, PERMISSIONS.filter((p) => roleAllows(role, p)).join(' ')]),
    );
    expect(table).toEqual({
      owner: 'self view keys billing members owner',
      admin: 'self view keys billing members',
      billing: 'self view billing',
      viewer: 'self view',
    });
    for (let i = 1; i < TEAM_ROLES.length; i += 1) {
      const higher = ROLE_PERMISSIONS[TEAM_ROLES[i - 1]!];
      expect(ROLE_PERMISSIONS[TEAM_ROLES[i]!].every((p) => higher.includes(p))).toBe(true);
      expect(roleRank(TEAM_ROLES[i - 1]!)).toBeGreaterThan(roleRank(TEAM_ROLES[i]!));
    }
  });

  it.each(defs.filter((d) => d.auth === 'user').map((d) => [d.name, d] as const))(
    '%s declares a known permission',
    (_name, def) => {
      expect(PERMISSIONS).toContain(def.permission);
      // A team taken from the params needs a teamId param to take it from.
      if (def.teamFrom === 'params') {
        expect(def.params.safeParse({}).success).toBe(false);
        const issues = def.params.safeParse({}).error?.issues ?? [];
        expect(issues.map((i) => i.path.join('.'))).toContain('teamId');
      }
    },
  );

  it('audited reads are marked readOnly and writes are not, so the log holds changes only', () => {
    const audited = defs.filter((d) => d.auth === 'user' && AUDITED_PERMISSIONS.has(d.permission));
    const looksLikeRead = (name: string) => /^hub_(get|report|polling|skuFirstConfirm)/.test(name);
    const wrong = audited
      .filter((d) => looksLikeRead(d.name) !== (d.readOnly === true))
      // Writes that happen to be named get…: they create or claim something.
      .filter(
        (d) =>
          ![
            'hub_getFreeSkuBuyFreeType',
            'hub_getDepositAddress',
            'hub_getViewUserDepositInfoCsv',
            'hub_getViewUserPurchaseInfoCsv',
            'hub_getInvoicePreviewCode',
          ].includes(d.name),
      )
      .map((d) => d.name);
    expect(wrong).toEqual([]);
  });
});

describe('auditDetail', () => {
  it('drops secrets, cuts long strings and bounds depth', () => {
    const detail = auditDetail({
      name: 'k',
      password: 'x',
      clientSecret: 'y',
      nested: { apiToken: 'z', deep: { deeper: { deepest: 1 } } },
      long: 'a'.repeat(500),
    });
    expect(detail).toEqual({
      name: 'k',
      nested: { deep: { deeper: '…' } },
      long: `${'a'.repeat(200)}…`,
    });
    expect(auditDetail(null)).toEqual({});
    expect(auditTarget({ keyId: 'k', name: 'prod key' })).toBe('prod key');
    expect(auditTarget({ teamId: 't', email: 'a@b.co', role: 'admin' })).toBe('a@b.co');
    expect(auditTarget({ keyId: 'k' })).toBeNull();
    expect(auditTarget('x')).toBeNull();
    expect(auditDetail(['a'])).toEqual({});
  });
});

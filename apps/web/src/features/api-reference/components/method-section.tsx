/** One method of the reference: what it does, who may call it, its params and result, errors and an example. */
import type { TPermission } from '@rpc/contract';
import { PERMISSIONS, TEAM_ROLES, roleAllows } from '@rpc/contract';
import { Typography } from 'antd';
import { memo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CODE_STYLE, CodeBlock } from '../../../components/code-block';
import { describeSchema } from '../utils/json-schema';
import type { TRefMethod } from '../utils/openrpc-document';
import { exampleRequestBody, methodAnchor } from '../utils/openrpc-document';
import { INLINE_CODE_STYLE, SchemaView } from './schema-view';

const h4 = { fontSize: 14, margin: '16px 0 4px' } as const;

function isPermission(value: string): value is TPermission {
  return (PERMISSIONS as readonly string[]).includes(value);
}

/** The params as one readable schema: the by-name object itself, or each positional param as a field. */
function paramsNode(method: TRefMethod) {
  if (method.params.length === 1 && method.paramStructure !== 'by-position') {
    return describeSchema(method.params[0]!.schema);
  }
  return describeSchema({
    type: 'object',
    properties: Object.fromEntries(method.params.map((p) => [p.name, p.schema])),
    required: method.params.filter((p) => p.isRequired).map((p) => p.name),
  });
}

function Access({ method }: { method: TRefMethod }) {
  const { t } = useTranslation(['api-reference', 'team']);
  const permission = method.permission;
  const roles =
    permission && isPermission(permission)
      ? TEAM_ROLES.filter((r) => roleAllows(r, permission)).map((r) => t(`team:roles.${r}`))
      : [];
  return (
    <dl style={{ margin: '8px 0 0' }}>
      <dt style={{ fontWeight: 600 }}>{t('method.auth')}</dt>
      <dd style={{ margin: '0 0 4px 16px' }}>
        {method.auth === 'user' ? t('method.authUser') : t('method.authNone')}
      </dd>
      {permission ? (
        <>
          <dt style={{ fontWeight: 600 }}>{t('method.permission')}</dt>
          <dd style={{ margin: '0 0 4px 16px' }}>
            <code style={INLINE_CODE_STYLE}>{permission}</code>{' '}
            {isPermission(permission) ? t(`permissions.${permission}`) : null}
            {roles.length > 0 ? (
              <div>{t('method.roles', { roles: roles.join(t('method.rolesSeparator')) })}</div>
            ) : null}
          </dd>
        </>
      ) : null}
    </dl>
  );
}

function authNote(method: TRefMethod, t: (key: string) => string): string {
  if (method.auth !== 'user') return t('method.noteNone');
  return method.isTeamFromParams ? t('method.noteTeamParam') : t('method.noteUser');
}

function MethodDetails({ method }: { method: TRefMethod }) {
  const { t } = useTranslation('api-reference');
  const body = exampleRequestBody(method);
  // The raw schema is built only once asked for: most readers never open it, and there are ~150 methods.
  const [isRawOpen, setRawOpen] = useState(false);
  return (
    <>
      <Access method={method} />

      <h4 style={h4}>{t('method.params')}</h4>
      <SchemaView node={paramsNode(method)} emptyText={t('method.noParams')} />

      <h4 style={h4}>{t('method.result')}</h4>
      {method.result === undefined ? (
        <Typography.Paragraph style={{ margin: 0 }}>{t('method.noResult')}</Typography.Paragraph>
      ) : (
        <SchemaView node={describeSchema(method.result)} emptyText={t('method.emptyResult')} />
      )}

      {method.errors.length > 0 ? (
        <>
          <h4 style={h4}>{t('method.errors')}</h4>
          <ul style={{ margin: 0, paddingLeft: 20 }}>
            {method.errors.map((e) => (
              <li key={e.code}>
                <code style={INLINE_CODE_STYLE}>{e.code}</code> <span lang="en">{e.message}</span>
              </li>
            ))}
          </ul>
        </>
      ) : null}

      <h4 style={h4}>{t('method.example')}</h4>
      <CodeBlock
        code={body}
        label={t('method.exampleLabel', { name: method.name })}
        copyLabel={t('method.copyExample', { name: method.name })}
        title={t('method.exampleTitle')}
      />
      <Typography.Paragraph style={{ margin: '4px 0 0' }}>
        {authNote(method, t)}
      </Typography.Paragraph>

      <details style={{ marginTop: 8 }} onToggle={(e) => setRawOpen(e.currentTarget.open)}>
        <summary>{t('method.raw')}</summary>
        {isRawOpen ? (
          <pre
            role="group"
            tabIndex={0}
            aria-label={t('method.rawLabel', { name: method.name })}
            style={{ ...CODE_STYLE, marginTop: 8 }}
          >
            <code>
              {JSON.stringify(
                { params: method.params.map((p) => p.schema), result: method.result ?? null },
                null,
                2,
              )}
            </code>
          </pre>
        ) : null}
      </details>
    </>
  );
}

export const MethodSection = memo(function MethodSection({
  method,
  isDetailed,
}: {
  method: TRefMethod;
  /** false while the page is still filling in: the heading and summary only, the rest a moment later */
  isDetailed: boolean;
}) {
  const { t } = useTranslation('api-reference');
  const anchor = methodAnchor(method.name);
  const titleId = `${anchor}-title`;
  return (
    <article
      id={anchor}
      aria-labelledby={titleId}
      // Focusable by script only: a deep link moves focus here, so a screen reader starts at the method.
      tabIndex={-1}
      style={{ padding: '16px 0', borderTop: '1px solid rgba(5,5,5,0.06)', scrollMarginTop: 72 }}
    >
      <div style={{ display: 'flex', alignItems: 'baseline', gap: 8 }}>
        <h3 id={titleId} style={{ fontSize: 18, margin: 0 }}>
          <code style={INLINE_CODE_STYLE}>{method.name}</code>
        </h3>
        <a href={`#${anchor}`} aria-label={t('method.link', { name: method.name })}>
          #
        </a>
      </div>
      {method.summary ? (
        <Typography.Paragraph lang="en" style={{ margin: '8px 0' }}>
          {method.summary}
        </Typography.Paragraph>
      ) : null}
      {method.description ? (
        <Typography.Paragraph lang="en">{method.description}</Typography.Paragraph>
      ) : null}
      {isDetailed ? <MethodDetails method={method} /> : null}
    </article>
  );
});

/** A JSON Schema read as nested lists: each field's name, whether it is required, its type and its limits. */
import { Typography } from 'antd';
import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import type { TSchemaConstraint, TSchemaField, TSchemaNode } from '../utils/json-schema';
import { nestedObject, nestedVariants, typeLabel } from '../utils/json-schema';

/** Plain elements, not antd's: a full reference is thousands of fields, and each component costs. */
export const INLINE_CODE_STYLE: CSSProperties = {
  background: 'rgba(150,150,150,0.12)',
  padding: '0 4px',
  borderRadius: 3,
  fontSize: '0.9em',
};
const TAG_STYLE: CSSProperties = {
  fontSize: 12,
  padding: '0 6px',
  borderRadius: 4,
  border: '1px solid',
};
const REQUIRED_STYLE: CSSProperties = { ...TAG_STYLE, color: '#a8071a', background: '#fff1f0' };
const OPTIONAL_STYLE: CSSProperties = {
  ...TAG_STYLE,
  color: 'rgba(0,0,0,0.88)',
  background: '#f5f5f5',
};

const listStyle = { margin: '4px 0 0', paddingLeft: 20, overflowWrap: 'anywhere' } as const;

function useConstraintText() {
  const { t } = useTranslation('api-reference');
  // Lengths and item counts are counted things (plural forms); bounds, patterns and formats are values.
  return (c: TSchemaConstraint) =>
    c.kind === 'minLength' ||
    c.kind === 'maxLength' ||
    c.kind === 'minItems' ||
    c.kind === 'maxItems'
      ? t(`schema.constraint.${c.kind}`, { count: c.value })
      : t(`schema.constraint.${c.kind}`, { value: c.value });
}

/** Type, limits and default of a node on one line. */
function NodeSummary({ node }: { node: TSchemaNode }) {
  const { t } = useTranslation('api-reference');
  const constraintText = useConstraintText();
  const details = [
    ...node.constraints.map(constraintText),
    ...(node.hasDefault
      ? [t('schema.default', { value: JSON.stringify(node.defaultValue) ?? 'undefined' })]
      : []),
  ];
  return (
    <>
      <code style={INLINE_CODE_STYLE}>{typeLabel(node)}</code>
      {details.length > 0 ? <span> · {details.join(' · ')}</span> : null}
      {node.description ? (
        <Typography.Paragraph lang="en" style={{ margin: '2px 0 0' }}>
          {node.description}
        </Typography.Paragraph>
      ) : null}
    </>
  );
}

/** What is listed under a node: the fields of its object (or of its elements), or its union's variants. */
function NodeChildren({ node }: { node: TSchemaNode }) {
  const { t } = useTranslation('api-reference');
  const object = nestedObject(node);
  const variants = nestedVariants(node);
  if (object) return <FieldList fields={object.fields} />;
  if (variants.length === 0) return null;
  return (
    <>
      <div style={{ marginTop: 4 }}>{t('schema.oneOf')}</div>
      <ol style={listStyle}>
        {variants.map((variant, i) => (
          <li key={i}>
            <NodeSummary node={variant} />
            <NodeChildren node={variant} />
          </li>
        ))}
      </ol>
    </>
  );
}

export function FieldList({ fields }: { fields: readonly TSchemaField[] }) {
  const { t } = useTranslation('api-reference');
  return (
    <ul style={listStyle}>
      {fields.map((field) => (
        <li key={field.name} style={{ marginBottom: 4 }}>
          <code style={{ ...INLINE_CODE_STYLE, fontWeight: 600 }}>{field.name}</code>{' '}
          <span style={field.isRequired ? REQUIRED_STYLE : OPTIONAL_STYLE}>
            {field.isRequired ? t('schema.required') : t('schema.optional')}
          </span>{' '}
          <NodeSummary node={field.node} />
          <NodeChildren node={field.node} />
        </li>
      ))}
    </ul>
  );
}

/** A whole schema: its fields when it is an object, else its type with whatever it holds. */
export function SchemaView({ node, emptyText }: { node: TSchemaNode; emptyText: string }) {
  if (node.type.kind === 'object' && node.type.fields.length > 0 && !node.isNullable) {
    return <FieldList fields={node.type.fields} />;
  }
  if (node.type.kind === 'object' && !node.type.rest) {
    return <Typography.Paragraph style={{ margin: 0 }}>{emptyText}</Typography.Paragraph>;
  }
  return (
    <div>
      <NodeSummary node={node} />
      <NodeChildren node={node} />
    </div>
  );
}

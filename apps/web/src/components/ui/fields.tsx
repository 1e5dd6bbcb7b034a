/**
 * Labelled form fields for the plain pages, as antd's vertical Form.Item draws them: label above, help text and
 * the error under the control. The control names itself by its <label>, points at its help and error with
 * aria-describedby, and says aria-invalid while in error; the error is a live region, as antd's is.
 */
import type { InputHTMLAttributes, ReactNode, Ref } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from './button';
import { EyeIcon, EyeOffIcon } from './icons';
import type { TFieldProps } from './use-form';
import './ui.css';

type TInputAttributes = Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'id' | 'name' | 'value' | 'onChange' | 'type' | 'className'
>;

type TTextFieldProps = TInputAttributes & {
  field: TFieldProps;
  label: ReactNode;
  /** help under the field (antd's `extra`), shown with the error */
  extra?: ReactNode;
  type?: 'text' | 'email' | 'password';
  inputRef?: Ref<HTMLInputElement>;
};

function describedBy(id: string, hasExtra: boolean, hasError: boolean): string | undefined {
  const ids = [hasError && `${id}_error`, hasExtra && `${id}_extra`].filter(Boolean);
  return ids.length > 0 ? ids.join(' ') : undefined;
}

function FieldShell({
  field,
  label,
  extra,
  children,
}: {
  field: Pick<TFieldProps, 'id' | 'error'>;
  label: ReactNode;
  extra?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className={field.error === undefined ? 'ui-field' : 'ui-field ui-field-invalid'}>
      <label className="ui-label" htmlFor={field.id}>
        {label}
      </label>
      {children}
      {field.error !== undefined && (
        <div id={`${field.id}_error`} className="ui-field-error" role="alert">
          {field.error}
        </div>
      )}
      {extra !== undefined && extra !== null && extra !== false && (
        <div id={`${field.id}_extra`} className="ui-field-extra">
          {extra}
        </div>
      )}
    </div>
  );
}

export function TextField({
  field,
  label,
  extra,
  type = 'text',
  inputRef,
  onBlur,
  ...rest
}: TTextFieldProps) {
  const hasExtra = extra !== undefined && extra !== null && extra !== false;
  return (
    <FieldShell field={field} label={label} extra={extra}>
      <input
        {...rest}
        ref={inputRef}
        id={field.id}
        name={field.name}
        type={type}
        className="ui-input"
        value={field.value}
        aria-invalid={field.error !== undefined || undefined}
        aria-describedby={describedBy(field.id, hasExtra, field.error !== undefined)}
        onChange={(event) => field.onChange(event.target.value)}
        onBlur={onBlur}
      />
    </FieldShell>
  );
}

/** A password field with a show / hide toggle (a real button, which antd's eye icon is not). */
export function PasswordField({
  field,
  label,
  extra,
  inputRef,
  ...rest
}: Omit<TTextFieldProps, 'type'>) {
  const { t } = useTranslation('auth');
  const [isShown, setIsShown] = useState(false);
  const hasExtra = extra !== undefined && extra !== null && extra !== false;
  return (
    <FieldShell field={field} label={label} extra={extra}>
      <div className="ui-input-affix">
        <input
          {...rest}
          id={field.id}
          name={field.name}
          type={isShown ? 'text' : 'password'}
          className="ui-input"
          value={field.value}
          aria-invalid={field.error !== undefined || undefined}
          aria-describedby={describedBy(field.id, hasExtra, field.error !== undefined)}
          onChange={(event) => field.onChange(event.target.value)}
          ref={inputRef}
        />
        <Button
          variant="text"
          aria-label={t('fields.showPassword')}
          aria-pressed={isShown}
          aria-controls={field.id}
          icon={isShown ? <EyeOffIcon /> : <EyeIcon />}
          onClick={() => setIsShown((shown) => !shown)}
        />
      </div>
    </FieldShell>
  );
}

/** A checkbox whose label is its content (the terms consent); its error shows under it. */
export function CheckboxField({
  field,
  children,
}: {
  field: TFieldProps<boolean>;
  children: ReactNode;
}) {
  return (
    <div className={field.error === undefined ? 'ui-field' : 'ui-field ui-field-invalid'}>
      <label className="ui-checkbox">
        <input
          id={field.id}
          name={field.name}
          type="checkbox"
          checked={field.value}
          aria-invalid={field.error !== undefined || undefined}
          aria-describedby={field.error !== undefined ? `${field.id}_error` : undefined}
          onChange={(event) => field.onChange(event.target.checked)}
        />
        <span className="ui-checkbox-box" aria-hidden="true" />
        <span>{children}</span>
      </label>
      {field.error !== undefined && (
        <div id={`${field.id}_error`} className="ui-field-error" role="alert">
          {field.error}
        </div>
      )}
    </div>
  );
}

/** antd's Radio.Group with optionType="button": real radios in a named group, drawn as joined buttons. */
export function RadioButtonsField<T extends string>({
  field,
  label,
  options,
}: {
  field: TFieldProps<T>;
  label: ReactNode;
  options: readonly { value: T; label: ReactNode }[];
}) {
  const labelId = `${field.id}_label`;
  return (
    <div className="ui-field">
      <div className="ui-label" id={labelId}>
        {label}
      </div>
      <div>
        <div className="ui-radio-buttons" role="radiogroup" aria-labelledby={labelId} id={field.id}>
          {options.map((option) => (
            <label key={option.value}>
              <input
                type="radio"
                name={field.name}
                value={option.value}
                checked={field.value === option.value}
                onChange={() => field.onChange(option.value)}
              />
              <span>{option.label}</span>
            </label>
          ))}
        </div>
      </div>
    </div>
  );
}

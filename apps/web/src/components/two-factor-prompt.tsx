/**
 * One small dialog for every action that needs a current two-factor code: asked up front (turning two-factor off,
 * new backup codes) or when the server answers 10219 (changing the password, deleting an API key), after which the
 * action is tried again with the code. A wrong code (10220) keeps the dialog open with the reason.
 */
import { ERROR_CODES, ZTwoFactorCodeSchema } from '@rpc/contract';
import type { InputRef } from 'antd';
import { Form, Input, Modal, Typography } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RpcCallError } from '../lib/rpc-client';
import { focusWhenMounted } from './focus-when-mounted';

/** Calls that may need a code pass these: the dialog says them, not a popup. */
export const TWO_FACTOR_PROMPT_CODES: readonly number[] = [
  ERROR_CODES.TWO_FACTOR_REQUIRED,
  ERROR_CODES.TWO_FACTOR_INVALID,
];

/** The user closed the dialog: callers stop quietly. */
export class TwoFactorCancelledError extends Error {
  constructor() {
    super('two-factor code not given');
    this.name = 'TwoFactorCancelledError';
  }
}

export function isTwoFactorCancelled(error: unknown): error is TwoFactorCancelledError {
  return error instanceof TwoFactorCancelledError;
}

export type TTwoFactorAsk<T> = {
  /** runs with the code; 10220 keeps the dialog open */
  run: (code: string) => Promise<T>;
  title?: string;
  description?: string;
  okText?: string;
  isDanger?: boolean;
};

type TRequest = TTwoFactorAsk<unknown> & {
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
};

function isRequiredError(error: unknown): boolean {
  return error instanceof RpcCallError && error.code === ERROR_CODES.TWO_FACTOR_REQUIRED;
}

/**
 * `ask` opens the dialog and settles with what `run` answers (or TwoFactorCancelledError); `withTwoFactor`
 * runs the action without a code first and asks only if the server wants one. Render `prompt` once.
 */
export function useTwoFactorPrompt() {
  const [request, setRequest] = useState<TRequest | null>(null);

  const ask = useCallback(
    <T,>(options: TTwoFactorAsk<T>) =>
      new Promise<T>((resolve, reject) => {
        setRequest({
          ...(options as TTwoFactorAsk<unknown>),
          resolve: resolve as (value: unknown) => void,
          reject,
        });
      }),
    [],
  );

  const withTwoFactor = useCallback(
    async <T,>(run: (code?: string) => Promise<T>, texts: Omit<TTwoFactorAsk<T>, 'run'> = {}) => {
      try {
        return await run(undefined);
      } catch (error) {
        if (!isRequiredError(error)) throw error;
      }
      return ask({ ...texts, run: (code) => run(code) });
    },
    [ask],
  );

  const prompt =
    request === null ? null : (
      <TwoFactorPromptDialog request={request} onClose={() => setRequest(null)} />
    );
  return { ask, withTwoFactor, prompt };
}

type TValues = { code: string };

function TwoFactorPromptDialog({ request, onClose }: { request: TRequest; onClose: () => void }) {
  const { t } = useTranslation('sign-in');
  const [form] = Form.useForm<TValues>();
  const [isRunning, setIsRunning] = useState(false);
  const inputRef = useRef<InputRef>(null);

  useEffect(() => focusWhenMounted(() => inputRef.current?.input), []);

  async function onFinish({ code }: TValues) {
    setIsRunning(true);
    try {
      const value = await request.run(ZTwoFactorCodeSchema.parse(code));
      request.resolve(value);
      onClose();
    } catch (error) {
      if (error instanceof RpcCallError && error.code === ERROR_CODES.TWO_FACTOR_INVALID) {
        form.setFields([{ name: 'code', value: '', errors: [t('twoFactorPrompt.wrong')] }]);
        inputRef.current?.focus();
        return;
      }
      // Anything else ends the attempt; the client has shown API errors.
      request.reject(error);
      onClose();
    } finally {
      setIsRunning(false);
    }
  }

  function onCancel() {
    if (isRunning) return;
    request.reject(new TwoFactorCancelledError());
    onClose();
  }

  return (
    <Modal
      open
      title={request.title ?? t('twoFactorPrompt.title')}
      okText={request.okText ?? t('twoFactorPrompt.ok')}
      cancelText={t('twoFactorPrompt.cancel')}
      okButtonProps={{ danger: request.isDanger === true, loading: isRunning }}
      onOk={() => form.submit()}
      onCancel={onCancel}
      destroyOnHidden
      maskClosable={false}
    >
      <Typography.Paragraph>
        {request.description ?? t('twoFactorPrompt.description')}
      </Typography.Paragraph>
      <Form<TValues>
        form={form}
        name="two-factor-prompt"
        layout="vertical"
        requiredMark={false}
        onFinish={onFinish}
        disabled={isRunning}
      >
        <Form.Item
          name="code"
          label={t('twoFactorPrompt.code')}
          extra={t('twoFactorPrompt.hint')}
          rules={[
            { required: true, whitespace: true, message: t('twoFactorPrompt.required') },
            {
              validator: async (_, value: unknown) => {
                if (typeof value !== 'string' || value.trim() === '') return;
                if (!ZTwoFactorCodeSchema.safeParse(value).success) {
                  throw new Error(t('twoFactorPrompt.invalid'));
                }
              },
            },
          ]}
        >
          <Input ref={inputRef} autoComplete="one-time-code" spellCheck={false} maxLength={9} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

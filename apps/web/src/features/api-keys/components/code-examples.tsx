/** Runnable snippets for one endpoint, one tab per language, each with its copy button (HTTPS, and WebSocket). */
import { Flex, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { CodeBlock } from '../../../components/code-block';
import type { TCodeLanguage, TExampleTarget } from '../utils/code-examples';
import { CODE_LANGUAGES, buildCodeExamples } from '../utils/code-examples';

export function CodeExamples({ target }: { target: TExampleTarget }) {
  const { t } = useTranslation('api-keys');
  const examples = buildCodeExamples(target);
  const item = (language: TCodeLanguage) => {
    const name = t(`examples.languages.${language}`);
    const { http, ws } = examples[language];
    return {
      key: language,
      label: name,
      children: (
        <Flex vertical gap={12}>
          <CodeBlock
            code={http}
            label={t('examples.http', { language: name })}
            copyLabel={t('examples.copyHttp', { language: name })}
          />
          {ws ? (
            <CodeBlock
              code={ws}
              label={t('examples.ws', { language: name })}
              copyLabel={t('examples.copyWs', { language: name })}
            />
          ) : null}
        </Flex>
      ),
    };
  };
  return (
    <div role="group" aria-label={t('examples.label')}>
      <Tabs size="small" defaultActiveKey="curl" items={CODE_LANGUAGES.map(item)} />
    </div>
  );
}

/** A node in words, for titles and messages: "Ethereum full node · US East (Virginia)". */
import type { TDnNode } from '@rpc/contract';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useDnFormat } from './use-dn-format';

export function useNodeName(): (
  node: Pick<TDnNode, 'chainName' | 'nodeType' | 'regionName'>,
) => string {
  const { t } = useTranslation('dedicated-node');
  const format = useDnFormat();
  return useCallback(
    (node) =>
      t('nodeName', {
        chain: format.text(node.chainName),
        type: t(`nodeType.${node.nodeType}`),
        region: format.text(node.regionName),
      }),
    [t, format],
  );
}

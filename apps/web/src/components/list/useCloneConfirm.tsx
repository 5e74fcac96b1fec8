import { Checkbox, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { CAMPAIGN_KINDS, FLOW_OF_CAMPAIGN, getResource, type ResourceDefinition } from '@switchyard/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api } from '../../api/client';
import { resourceKeys } from '../../api/queryKeys';
import { showNotice } from '../feedback/showNotice';
import { useServerMessage } from '../feedback/useServerMessage';
import { recordName } from '../recordName';

/**
 * Clone in a list row. A confirmation (campaigns offer "Copy its flow too"), then
 * `POST /api/{resource}/{id}/clone`; the copy's edit screen opens with a notice.
 */
export function useCloneConfirm(definition: ResourceDefinition) {
  const { t } = useTranslation();
  const serverMessage = useServerMessage();
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  return useCallback(
    (record: Record<string, unknown>) => {
      const id = record[definition.idField] as string | number;
      const isCampaign = CAMPAIGN_KINDS.has(definition.name);
      let withFlow = false;
      const clone = async () => {
        try {
          const copy = await api<Record<string, unknown>>(
            `${definition.apiPath}/${encodeURIComponent(String(id))}/clone`,
            { method: 'POST', body: isCampaign ? { with_flow: withFlow } : {} },
          );
          void queryClient.invalidateQueries({ queryKey: resourceKeys.all(definition) });
          void queryClient.invalidateQueries({ queryKey: resourceKeys.lookup(definition) });
          const flowKind = FLOW_OF_CAMPAIGN[definition.name];
          if (withFlow && flowKind) {
            void queryClient.invalidateQueries({ queryKey: resourceKeys.all(getResource(flowKind)) });
            void queryClient.invalidateQueries({ queryKey: resourceKeys.lookup(getResource(flowKind)) });
          }
          showNotice({ message: t('history:clone.done', { name: recordName(definition, copy) }) });
          navigate(`${definition.route}/edit/${encodeURIComponent(String(copy[definition.idField]))}`);
        } catch (error) {
          showNotice({ kind: 'danger', message: serverMessage((error as Error).message) });
        }
      };
      modals.openConfirmModal({
        title: t('history:clone.title', { name: recordName(definition, record) }),
        children: (
          <Stack gap="sm">
            <Text size="sm">{t('history:clone.text')}</Text>
            {isCampaign && (
              <Checkbox
                label={t('history:clone.withFlow')}
                onChange={(event) => {
                  withFlow = event.currentTarget.checked;
                }}
              />
            )}
          </Stack>
        ),
        labels: { confirm: t('history:clone.confirm'), cancel: t('history:clone.cancel') },
        onConfirm: () => void clone(),
      });
    },
    [definition, t, serverMessage, navigate, queryClient],
  );
}

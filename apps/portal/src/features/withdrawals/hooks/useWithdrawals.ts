import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getSettlementSettings, listSettlements, requestWithdrawal, setAutoSettlement, setSettlementAccount, type AutoSettlementFrequency, type SettlementSettings } from '../api';

export const SETTLEMENTS_QUERY_KEY = ['settlements'] as const;
const SETTINGS_KEY = [...SETTLEMENTS_QUERY_KEY, 'settings'] as const;

export function useSettlementSettings() {
  return useQuery({ queryKey: SETTINGS_KEY, queryFn: ({ signal }) => getSettlementSettings(signal) });
}

export function useSettlements(enabled: boolean) {
  return useInfiniteQuery({
    queryKey: [...SETTLEMENTS_QUERY_KEY, 'list'],
    queryFn: ({ pageParam, signal }) => listSettlements(pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.meta.has_more && last.meta.next_cursor ? last.meta.next_cursor : undefined),
    enabled,
  });
}

export function useSetSettlementAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, totp }: { body: { bank_code: string; account_number: string }; totp: string }) => setSettlementAccount(body, totp),
    onSuccess: (settings: SettlementSettings) => queryClient.setQueryData(SETTINGS_KEY, settings),
  });
}

export function useSetAutoSettlement() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (frequency: AutoSettlementFrequency) => setAutoSettlement(frequency),
    onSuccess: (settings: SettlementSettings) => queryClient.setQueryData(SETTINGS_KEY, settings),
  });
}

/** A withdrawal reserves its amount at once: the list, the wallet and the dashboard are fetched again. */
export function useRequestWithdrawal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ amount, totp }: { amount: number; totp?: string }) => requestWithdrawal(amount, totp),
    onSuccess: () => Promise.all([SETTLEMENTS_QUERY_KEY, ['wallet'], ['dashboard']].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}

import type { Rule, RulePreviewAnswer, RuleRun, TRuleForm } from '@switchyard/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';

/** The acting workspace's rules (`/api/rules`), each rule's runs and its preview. */
export const ruleKeys = {
  all: ['rules'] as const,
  one: (id: number) => ['rules', id] as const,
  runs: (id: number) => ['rules', id, 'runs'] as const,
};

export function useRules() {
  return useQuery({
    queryKey: ruleKeys.all,
    queryFn: ({ signal }) => api<{ list: Rule[]; total: number }>('rules', { signal }),
  });
}

export function useRule(id: number | null) {
  return useQuery({
    queryKey: ruleKeys.one(id ?? 0),
    queryFn: ({ signal }) => api<Rule>(`rules/${id}`, { signal }),
    enabled: id !== null,
    retry: false,
  });
}

export function useRuleRuns(id: number | null) {
  return useQuery({
    queryKey: ruleKeys.runs(id ?? 0),
    queryFn: ({ signal }) => api<{ list: RuleRun[]; total: number }>(`rules/${id}/runs`, { signal }),
    enabled: id !== null,
  });
}

export function useRuleActions() {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: ruleKeys.all });
  return {
    save: useMutation({
      mutationFn: ({ id, form }: { id: number | null; form: TRuleForm }) =>
        api<Rule>(id === null ? 'rules' : `rules/${id}`, { method: id === null ? 'POST' : 'PUT', body: form }),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (id: number) => api<null>(`rules/${id}`, { method: 'DELETE' }),
      onSuccess: refresh,
    }),
    /** What the form's rule would do now; a saved rule's preview keeps its cooldowns. Nothing is changed. */
    preview: useMutation({
      mutationFn: ({ id, form }: { id: number | null; form: TRuleForm }) =>
        api<RulePreviewAnswer>(id === null ? 'rules/preview' : `rules/${id}/preview`, { method: 'POST', body: form }),
    }),
  };
}

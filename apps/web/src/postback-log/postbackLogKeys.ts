/** Every query of the postback log starts with `['postback-log']`, so Refresh can refetch both tabs. */
export const postbackLogKeys = {
  all: ['postback-log'] as const,
  incoming: (query: object) => ['postback-log', 'incoming', query] as const,
  outbound: (query: object) => ['postback-log', 'outbound', query] as const,
};

export const INVITATIONS_KEY = ['account', 'invitations'] as const;
export const ACCOUNT_SETTINGS_KEY = ['account', 'settings'] as const;

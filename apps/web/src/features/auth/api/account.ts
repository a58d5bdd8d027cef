import { queryOptions, useQuery } from '@tanstack/react-query';
import { privacyMessages, type DeleteAccountInput } from '@hp/contract';
import type {
  ChangeEmailInput,
  ConfirmEmailLinkInput,
  ChangePasswordInput,
  MessageResult,
  MfaDisableInput,
  MfaEnableInput,
  MfaEnableResult,
  MfaSetupResult,
  Profile,
  TokenResult,
  UpdateProfileInput,
} from '@hp/contract';
import { api } from '../../../lib/api-client.ts';
import { downloadFile } from '../../../lib/files.ts';

export const profileKey = ['profile'] as const;

// GET /api/account/profile
export const profileRequest = () => api<Profile>('/account/profile');
export const profileQueryOptions = () => queryOptions({ queryKey: profileKey, queryFn: profileRequest });
export const useProfile = () => useQuery(profileQueryOptions());

// PUT /api/account/profile
export const updateProfileRequest = (body: UpdateProfileInput) => api<Profile>('/account/profile', { method: 'PUT', body });

// POST /api/account/email — e-mail change: the current password sends a code to the new address …
export const changeEmailRequest = (body: ChangeEmailInput) => api<MessageResult>('/account/email', { body });
// POST /api/account/email/confirm — … and the code makes the change.
export const confirmEmailChangeRequest = (body: { code: string }) => api<Profile>('/account/email/confirm', { body });

// POST /api/account/password — answers a new token (other sessions end).
export const changePasswordRequest = (body: ChangePasswordInput) => api<TokenResult>('/account/password', { body });

// POST /api/account/mfa/setup, /enable, /disable
export const mfaSetupRequest = () => api<MfaSetupResult>('/account/mfa/setup', { method: 'POST' });
export const mfaEnableRequest = (body: MfaEnableInput) => api<MfaEnableResult>('/account/mfa/enable', { body });
export const mfaDisableRequest = (body: MfaDisableInput) => api<void>('/account/mfa/disable', { body });

// GET /api/account/export — ZIP with daten.json and every invoice (Art. 15/20 DSGVO); answers the saved name.
export const exportMyDataRequest = () => downloadFile('/account/export', 'meine-daten.zip', privacyMessages.exportFailed);

// POST /api/account/deletion — "Konto löschen" with the current password; every session ends.
export const deleteAccountRequest = (body: DeleteAccountInput) => api<MessageResult>('/account/deletion', { body });

// POST /api/account/email/link — public: confirms an e-mail change staff started (link in the mail).
export const confirmEmailLinkRequest = (body: ConfirmEmailLinkInput) => api<MessageResult>('/account/email/link', { body, anonymous: true });

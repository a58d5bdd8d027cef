import type { ChangeEmailInput, LoginResult, Profile, UpdateProfileInput } from '@hp/contract';
import { api } from '../../lib/api-client.ts';

export const MFA_TOKEN_KEY = 'mfaToken';

export const loginRequest = (body: { username: string; password: string }) => api<LoginResult>('/auth/login', { body, anonymous: true });
export const registerRequest = (body: { username: string; email: string; password: string; confirmPassword: string }) =>
  api<{ code: string; message: string; userId: string }>('/auth/register', { body, anonymous: true });
export const verifyEmailRequest = (body: { userId: string; code: string }) => api<{ message: string }>('/auth/verify-email', { body, anonymous: true });
export const resendVerificationRequest = (body: { userId: string }) => api<{ retryAfterSeconds: number }>('/auth/verify-email/resend', { body, anonymous: true });
export const mfaLoginRequest = (body: { mfaToken: string; code: string } | { mfaToken: string; backupCode: string }) => api<{ token: string }>('/auth/mfa', { body, anonymous: true });
export const resetRequest = (body: { email: string }) => api<{ resetId: string }>('/auth/password-reset/request', { body, anonymous: true });
/** Names the code by the resetId of step 1, or by the e-mail address when the page was left in between. */
export const resetVerify = (body: { resetId: string; code: string } | { email: string; code: string }) => api<{ resetToken: string }>('/auth/password-reset/verify', { body, anonymous: true });
export const resetComplete = (body: { resetToken: string; newPassword: string }) => api<{ message: string }>('/auth/password-reset/complete', { body, anonymous: true });

export const profileRequest = () => api<Profile>('/account/profile');
export const updateProfileRequest = (body: UpdateProfileInput) => api<Profile>('/account/profile', { method: 'PUT', body });
/** E-mail change: the current password sends a code to the new address; the code makes the change. */
export const changeEmailRequest = (body: ChangeEmailInput) => api<{ message: string }>('/account/email', { body });
export const confirmEmailChangeRequest = (body: { code: string }) => api<Profile>('/account/email/confirm', { body });
export const changePasswordRequest = (body: { currentPassword: string; newPassword: string }) => api<{ token: string }>('/account/password', { body });
export const mfaSetupRequest = () => api<{ secret: string; otpauthUrl: string; qrDataUrl: string }>('/account/mfa/setup', { method: 'POST' });
export const mfaEnableRequest = (body: { code: string }) => api<{ backupCodes: string[] }>('/account/mfa/enable', { body });
export const mfaDisableRequest = (body: { password: string; code: string }) => api<void>('/account/mfa/disable', { body });

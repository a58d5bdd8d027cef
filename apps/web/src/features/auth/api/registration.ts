import type { RegisterInput, RegisterResult, ResendVerificationInput, ResendVerificationResult, VerifyEmailInput, VerifyEmailResult } from '@hp/contract';
import { api } from '../../../lib/api-client.ts';

// POST /api/auth/register
export const registerRequest = (body: RegisterInput) => api<RegisterResult>('/auth/register', { body, anonymous: true });

// POST /api/auth/verify-email — with the login's token the answer carries a session (`token`).
export const verifyEmailRequest = (body: VerifyEmailInput) => api<VerifyEmailResult>('/auth/verify-email', { body, anonymous: true });

/**
 * The login that was refused for an unverified address (its `loginToken`), kept in this tab until the
 * code is entered: the verification then completes that login.
 */
const PENDING_LOGIN_KEY = 'hp-pending-login';
export function rememberPendingLogin(userId: string, loginToken: string) {
  try {
    sessionStorage.setItem(PENDING_LOGIN_KEY, JSON.stringify({ userId, loginToken }));
  } catch {
    // Storage disabled: the user signs in again after the verification.
  }
}
export function takePendingLogin(userId: string): string | undefined {
  try {
    const stored = JSON.parse(sessionStorage.getItem(PENDING_LOGIN_KEY) ?? 'null') as { userId?: unknown; loginToken?: unknown } | null;
    return stored?.userId === userId && typeof stored.loginToken === 'string' ? stored.loginToken : undefined;
  } catch {
    return undefined;
  }
}
export function forgetPendingLogin() {
  try {
    sessionStorage.removeItem(PENDING_LOGIN_KEY);
  } catch {
    // Nothing stored.
  }
}

// POST /api/auth/verify-email/resend
export const resendVerificationRequest = (body: ResendVerificationInput) => api<ResendVerificationResult>('/auth/verify-email/resend', { body, anonymous: true });

import type { LoginInput, LoginResult, MfaLoginInput, TokenResult } from '@hp/contract';
import { api } from '../../../lib/api-client.ts';

/** sessionStorage key of the MFA-pending token between the login and the MFA page. */
export const MFA_TOKEN_KEY = 'mfaToken';

// POST /api/auth/login
export const loginRequest = (body: LoginInput) => api<LoginResult>('/auth/login', { body, anonymous: true });

// POST /api/auth/mfa — second step with a TOTP or a backup code.
export const mfaLoginRequest = (body: MfaLoginInput) => api<TokenResult>('/auth/mfa', { body, anonymous: true });

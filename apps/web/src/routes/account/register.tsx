export { REDIRECT_AFTER_REGISTRATION_MS, RegisterPage } from '../../features/auth/components/register-page.tsx';

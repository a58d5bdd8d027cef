export { LoginPage } from '../../features/auth/components/login-page.tsx';

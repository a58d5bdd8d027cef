export { StatusPage } from '../../features/status/components/status-page.tsx';

export { default } from '../../features/status/components/status-management-page.tsx';

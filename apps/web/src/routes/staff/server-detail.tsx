export { default } from '../../features/infrastructure/components/staff-server-page.tsx';

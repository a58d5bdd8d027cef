export { default } from '../../features/infrastructure/components/server-list-page.tsx';

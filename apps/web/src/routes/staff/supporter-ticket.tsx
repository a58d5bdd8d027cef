export { default } from '../../features/support/components/supporter-ticket-page.tsx';

export { default } from '../../features/support/components/customer-ticket-page.tsx';

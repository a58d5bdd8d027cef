export { default } from '../../features/customers/components/customer-overview-page.tsx';

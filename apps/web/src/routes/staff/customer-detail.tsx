export { default } from '../../features/customers/components/customer-detail-page.tsx';

export { default } from '../../features/billing/components/orders-page.tsx';

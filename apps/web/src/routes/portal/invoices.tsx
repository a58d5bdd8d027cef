export { default } from '../../features/billing/components/invoices-page.tsx';

export { default } from '../../features/support/components/support-page.tsx';

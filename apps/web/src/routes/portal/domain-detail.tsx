export { default } from '../../features/domains/components/domain-page.tsx';

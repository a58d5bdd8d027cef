export { default } from '../../features/changelog/components/changelog-page.tsx';

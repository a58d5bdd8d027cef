export { default } from '../../features/changelog/components/changelog-form-page.tsx';

export { default } from '../../features/statistics/components/statistics-page.tsx';

import StaffTicketListPage from '../../features/support/components/staff-ticket-list-page.tsx';

export default function SupportOverviewPage() {
  return <StaffTicketListPage scope="unassigned" />;
}

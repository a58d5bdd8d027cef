import { serverDetailPath } from '@hp/contract';

/**
 * Every in-app path of the SPA, for links, navigation, redirects and the route definitions. Pages
 * are named by what they show; the URLs are the spec's (hence `/dashboard/profil`, `/Changelog`).
 * Functions take the id (or a route parameter such as ':serverId' when a route is declared).
 * API URLs are not here: they live with their endpoint in features/<name>/api/.
 */
export const paths = {
  home: '/',
  rootServer: '/root-server',
  webhosting: '/webhosting',
  cloudStorage: '/cloud-speicher',
  virtualDataCenter: '/virtual-data-center',
  domain: '/domain',
  imprint: '/impressum',
  privacy: '/datenschutz',
  terms: '/agb',
  faq: '/faq',
  company: '/unternehmen',
  dataCenter: '/rechenzentrum',
  /** Customer help: the FAQ and how-tos, each article at `#<its id>`. */
  docs: '/dokumentation',
  status: '/status',
  statusCreate: '/status-create',
  changelog: '/changelog',
  /** The spec's spelling, linked from the footer. */
  changelogLegacy: '/Changelog',
  changelogEntry: (id: string) => `/changelog/${id}`,
  /** Spec: without an id, the newest entry. */
  changelogDetailsLegacy: '/Changelog-details',
  changelogCreate: '/changelog-create',
  changelogCreateLegacy: '/Changelog-create',
  changelogEdit: (id: string) => `/changelog-create?edit=${encodeURIComponent(id)}`,
  console: (serverId: string) => `/console/${serverId}`,
  /** The customer's ticket chat (spec). */
  ticket: (ticketId: string) => `/support/${ticketId}`,
  /** The supporter's view of a ticket (staff, spec). */
  supporterTicket: (ticketId: string) => `/supporter/${ticketId}`,

  shop: {
    rootServer: '/shop/root-server',
    kvmServer: '/shop/kvm-server',
    payment: '/shop/payment',
    webhosting: '/shop/webhosting',
    /** Domain order: ?domain=&action=register|transfer, or ?renew={domainId}. */
    domain: '/shop/domain',
    domainOrder: (domain: string, action: 'register' | 'transfer') => `/shop/domain?domain=${encodeURIComponent(domain)}&action=${action}`,
    domainRenew: (domainId: string) => `/shop/domain?renew=${encodeURIComponent(domainId)}`,
    cloudStorage: '/shop/cloud-storage',
    /** Renewal of one's own cloud storage account, with a change of plan. */
    cloudStorageRenew: (storageId: string) => `/shop/cloud-storage?renew=${encodeURIComponent(storageId)}`,
    vdcRequest: '/shop/vdc-request',
    /** Renewal (and upgrade) of one's own virtual data center. */
    vdcRenew: (vdcId: string) => `/shop/vdc-request?renew=${encodeURIComponent(vdcId)}`,
    upgradeKvmServer: (serverId: string) => `/upgrade/kvm-server/${serverId}`,
  },

  login: '/login',
  register: '/register',
  resetPassword: '/reset-password',
  /** The spec's second name of the reset page (linked from the login page). */
  passwordReset: '/password-reset',
  verification: (userId: string) => `/user/verification/${userId}`,
  /** Behind the link of a staff-initiated e-mail change (the API builds the same URL in code-mail.ts). */
  emailLink: '/email-bestaetigen',

  notFound: '/notfound',
  notFound404: '/404',
  error: '/error',

  dashboard: {
    root: '/dashboard',
    mfa: '/dashboard/mfa',
    profile: '/dashboard/profil',
    orders: '/dashboard/order',
    order: (orderId: string) => `/dashboard/order/${orderId}`,
    invoices: '/dashboard/invoices',
    support: '/dashboard/support',
    myTickets: '/dashboard/my-tickets',
    webhostingDetails: '/dashboard/WebDetails',
    /** A customer's web hosting package page. */
    webhosting: (hostingId: string) => `/dashboard/webhosting/${hostingId}`,
    /** A customer's domain (Meine Produkte → Domains). */
    domain: (domainId: string) => `/dashboard/domains/${domainId}`,
    /** A customer's cloud storage account (the API's subscriptionPath). */
    cloudStorage: (storageId: string) => `/dashboard/cloud-storage/${storageId}`,
    /** A customer's virtual data center (the API's subscriptionPath). */
    vdc: (vdcId: string) => `/dashboard/vdc/${vdcId}`,
    /** A customer's server page: /dashboard/linux|windows|other/{id} by its OS (spec). */
    server: serverDetailPath,
    serverByFamily: (family: 'linux' | 'windows' | 'other', serverId: string) => `/dashboard/${family}/${serverId}`,
    supportOverview: '/dashboard/support-overview',
    customerOverview: '/dashboard/customer-overview',
    customerDetails: (customerId: string) => `/dashboard/customer-details/${customerId}`,
    /** "Neue Bestellung" for the customer: the configurator sending a payment link. */
    customerOrder: (customerId: string) => `/dashboard/customer-details/${customerId}/neue-bestellung`,
    staffServers: '/dashboard/servers',
    staffServer: (serverId: string) => `/dashboard/servers/${serverId}`,
    physicalServers: '/dashboard/physical-servers',
    hostingServers: '/dashboard/hosting-servers',
    storageServers: '/dashboard/storage-servers',
    /** Staff: every customer's virtual data centers. */
    vdcs: '/dashboard/vdcs',
    ipAddresses: '/dashboard/ipaddressmanagement',
    statistics: '/dashboard/statistics',
  },
} as const;

/** A path below /dashboard as the portal's own <Routes> declare it ('servers/:serverId'). */
export const dashboardRoute = (path: string) => path.replace(/^\/dashboard\/?/, '');

/// <reference types="vite/client" />
declare const __COMPANY__: import('@hp/contract').CompanyInfo;
declare const __DATA_CENTER__: import('@hp/contract').DataCenterInfo;
/** The base of the free web hosting subdomains (HOSTING_SUBDOMAIN_BASE), for the prerendered shop page. */
declare const __HOSTING_SUBDOMAIN_BASE__: string;

/// <reference types="vite/client" />
declare const __COMPANY__: import('@hp/contract').CompanyInfo;

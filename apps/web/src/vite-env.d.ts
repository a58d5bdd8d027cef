/// <reference types="vite/client" />
declare const __COMPANY__: import('@hp/contract').CompanyInfo;
declare const __DATA_CENTER__: import('@hp/contract').DataCenterInfo;

/**
 * What ISPConfig's remote API accepts, for every remote function the driver calls, read from ISPConfig's
 * own PHP source and written down here as data: the permission each function checks, its parameters in
 * the order of the PHP signature (json.php maps JSON keys onto these names), and for the records of the
 * `*_add` / `*_update` functions the form fields remoting_lib validates (the fields the driver sends plus
 * the ones the form requires). The fake panel (fake-ispconfig.ts) enforces this table; the driver must
 * satisfy it. Each entry cites the file and line it was read from.
 *
 * Source read: github.com/AVENTER-UG/ispconfig3 at commit c44e422d4a29b7e413891abad0800564c8599a09, a
 * mirror of ISPConfig 3.2.12 ("update-3.2.12", merged from upstream git.ispconfig.org/ispconfig/ispconfig3).
 * Paths below are relative to that repository. Where behaviour differs between 3.2 releases it is said.
 */

export const ISPCONFIG_SOURCE = {
  repository: 'AVENTER-UG/ispconfig3',
  commit: 'c44e422d4a29b7e413891abad0800564c8599a09',
  version: '3.2.12',
} as const;

/**
 * The checkboxes under System → Remote Users → "Remote Access": each grants every permission name in its
 * key. The admin's choice is stored in remote_user.remote_functions joined by ';', and checkPerm() splits
 * that string at ';' and ',' and looks the permission name up (interface/lib/classes/remoting.inc.php:532-557).
 * So a function is allowed by its group, and the name it checks is not always its own.
 */
export const FUNCTION_GROUPS = {
  // interface/web/admin/lib/remote.conf.php:3
  'Server functions': [
    'server_get', 'server_config_set', 'get_function_list', 'client_templates_get_all', 'server_get_serverid_by_ip', 'server_ip_get', 'server_ip_add',
    'server_ip_update', 'server_ip_delete', 'system_config_set', 'system_config_get', 'config_value_get', 'config_value_add', 'config_value_update',
    'config_value_replace', 'config_value_delete',
  ],
  // interface/web/client/lib/remote.conf.php:3
  'Client functions': [
    'client_get_all', 'client_get', 'client_add', 'client_update', 'client_delete', 'client_get_sites_by_user', 'client_get_by_username',
    'client_get_by_customer_no', 'client_change_password', 'client_get_id', 'client_delete_everything', 'client_get_emailcontact',
  ],
  // interface/web/client/lib/remote.conf.php:5
  'Quota functions': ['quota_get_by_user', 'trafficquota_get_by_user', 'mailquota_get_by_user', 'databasequota_get_by_user'],
  // interface/web/monitor/lib/remote.conf.php:3
  'Monitor functions': ['monitor_jobqueue_count'],
  // interface/web/sites/lib/remote.conf.php:3 (two names there carry a leading space and so never match; not ours)
  'Sites database functions': [
    'sites_database_get', 'sites_database_add', 'sites_database_update', 'sites_database_delete', 'sites_database_user_get', 'sites_database_user_add',
    'sites_database_user_update', 'sites_database_user_delete',
  ],
  // interface/web/sites/lib/remote.conf.php:5
  'Sites FTP-User functions': ['sites_ftp_user_get', 'sites_ftp_user_server_get', 'sites_ftp_user_add', 'sites_ftp_user_update', 'sites_ftp_user_delete'],
  // interface/web/sites/lib/remote.conf.php:7
  'Sites Domain functions': ['sites_web_domain_get', 'sites_web_domain_add', 'sites_web_domain_update', 'sites_web_domain_delete', 'sites_web_domain_set_status'],
  // interface/web/sites/lib/remote.conf.php:8
  'Sites Backup functions': ['sites_web_domain_backup'],
  // interface/web/sites/lib/remote.conf.php:9
  'Sites Aliasdomain functions': ['sites_web_aliasdomain_get', 'sites_web_aliasdomain_add', 'sites_web_aliasdomain_update', 'sites_web_aliasdomain_delete'],
} as const satisfies Record<string, readonly string[]>;

export type FunctionGroup = keyof typeof FUNCTION_GROUPS;

/** The groups a panel admin must tick for this driver (every permission of REMOTE_FUNCTIONS lies in one). */
export const DRIVER_FUNCTION_GROUPS: readonly FunctionGroup[] = [
  'Server functions', 'Client functions', 'Quota functions', 'Monitor functions', 'Sites database functions', 'Sites FTP-User functions',
  'Sites Domain functions', 'Sites Backup functions', 'Sites Aliasdomain functions',
];

/** The permission names a remote user with these groups holds (what checkPerm looks up). */
export function permissionsOf(groups: readonly FunctionGroup[]): string[] {
  return [...new Set(groups.flatMap((g) => FUNCTION_GROUPS[g]))];
}

export type FormName = 'client' | 'web_vhost_domain' | 'database' | 'database_user' | 'ftp_user';

export interface RemoteFunction {
  /** The name the function passes to checkPerm(): what the remote user must hold. */
  permission: string;
  /** Parameters after $session_id, in the order of the PHP signature. */
  params: readonly string[];
  /** A second permission the body checks before it finishes. */
  alsoChecks?: string;
  /** The tform its `params` record is validated against (remoting_lib::getSQL → tform_base::_encode). */
  form?: FormName;
  /** Where the function is defined. */
  source: string;
}

/**
 * Every remote function the driver calls. login/logout check no permission. json.php passes a parameter
 * that was not sent as null, even where the PHP signature has a default (json_handler.inc.php:71-76).
 */
export const REMOTE_FUNCTIONS = {
  login: { permission: '', params: ['username', 'password', 'client_login'], source: 'interface/lib/classes/remoting.inc.php:65' },
  logout: { permission: '', params: [], source: 'interface/lib/classes/remoting.inc.php:248' },
  client_templates_get_all: { permission: 'client_templates_get_all', params: [], source: 'interface/lib/classes/remote.d/client.inc.php:566 (checkPerm :568)' },
  client_get: { permission: 'client_get', params: ['client_id'], source: 'interface/lib/classes/remote.d/client.inc.php:51 (checkPerm :55)' },
  client_get_groupid: { permission: 'client_get_id', params: ['client_id'], source: 'interface/lib/classes/remote.d/client.inc.php:138 (checkPerm :141)' },
  client_add: { permission: 'client_add', params: ['reseller_id', 'params'], form: 'client', source: 'interface/lib/classes/remote.d/client.inc.php:159 (checkPerm :163)' },
  client_update: {
    permission: 'client_update', params: ['client_id', 'reseller_id', 'params'], form: 'client', source: 'interface/lib/classes/remote.d/client.inc.php:188 (checkPerm :192)',
  },
  client_change_password: {
    permission: 'client_change_password', params: ['client_id', 'new_password'], source: 'interface/lib/classes/remote.d/client.inc.php:537 (checkPerm :542)',
  },
  client_delete_everything: {
    permission: 'client_delete_everything', alsoChecks: 'client_delete', params: ['client_id'], source: 'interface/lib/classes/remote.d/client.inc.php:391 (checkPerm :395, and client_delete at :453)',
  },
  sites_web_domain_get: { permission: 'sites_web_domain_get', params: ['primary_id'], source: 'interface/lib/classes/remote.d/sites.inc.php:402 (checkPerm :406)' },
  sites_web_domain_add: {
    permission: 'sites_web_domain_add', params: ['client_id', 'params', 'readonly'], form: 'web_vhost_domain', source: 'interface/lib/classes/remote.d/sites.inc.php:416 (checkPerm :419)',
  },
  sites_web_domain_update: {
    permission: 'sites_web_domain_update', params: ['client_id', 'primary_id', 'params'], form: 'web_vhost_domain',
    source: 'interface/lib/classes/remote.d/sites.inc.php:448 (checkPerm :450)',
  },
  sites_web_vhost_aliasdomain_get: {
    permission: 'sites_web_aliasdomain_get', params: ['primary_id'], source: 'interface/lib/classes/remote.d/sites.inc.php:481 (checkPerm :485)',
  },
  sites_web_vhost_aliasdomain_add: {
    permission: 'sites_web_aliasdomain_add', params: ['client_id', 'params'], form: 'web_vhost_domain', source: 'interface/lib/classes/remote.d/sites.inc.php:495 (checkPerm :498)',
  },
  sites_web_vhost_aliasdomain_update: {
    permission: 'sites_web_aliasdomain_update', params: ['client_id', 'primary_id', 'params'], form: 'web_vhost_domain',
    source: 'interface/lib/classes/remote.d/sites.inc.php:520 (checkPerm :522)',
  },
  sites_web_vhost_aliasdomain_delete: {
    permission: 'sites_web_aliasdomain_delete', params: ['primary_id'], source: 'interface/lib/classes/remote.d/sites.inc.php:540 (checkPerm :542)',
  },
  server_get_php_versions: {
    permission: 'server_get', params: ['server_id', 'php', 'get_full_data'], source: 'interface/lib/classes/remote.d/server.inc.php:260 (checkPerm :263)',
  },
  system_config_get: { permission: 'system_config_get', params: ['section', 'key'], source: 'interface/lib/classes/remote.d/admin.inc.php:137 (checkPerm :139)' },
  monitor_jobqueue_count: { permission: 'monitor_jobqueue_count', params: ['server_id'], source: 'interface/lib/classes/remote.d/monitor.inc.php:36 (checkPerm :40)' },
  sites_database_get: { permission: 'sites_database_get', params: ['primary_id'], source: 'interface/lib/classes/remote.d/sites.inc.php:93 (checkPerm :97)' },
  sites_database_add: {
    permission: 'sites_database_add', params: ['client_id', 'params'], form: 'database', source: 'interface/lib/classes/remote.d/sites.inc.php:108 (checkPerm :112)',
  },
  sites_database_delete: { permission: 'sites_database_delete', params: ['primary_id'], source: 'interface/lib/classes/remote.d/sites.inc.php:185 (checkPerm :188)' },
  sites_database_user_get: { permission: 'sites_database_user_get', params: ['primary_id'], source: 'interface/lib/classes/remote.d/sites.inc.php:203 (checkPerm :207)' },
  sites_database_user_add: {
    permission: 'sites_database_user_add', params: ['client_id', 'params'], form: 'database_user', source: 'interface/lib/classes/remote.d/sites.inc.php:217 (checkPerm :219)',
  },
  sites_database_user_update: {
    permission: 'sites_database_user_update', params: ['client_id', 'primary_id', 'params'], form: 'database_user',
    source: 'interface/lib/classes/remote.d/sites.inc.php:228 (checkPerm :232)',
  },
  sites_database_user_delete: {
    permission: 'sites_database_user_delete', params: ['primary_id'], source: 'interface/lib/classes/remote.d/sites.inc.php:258 (checkPerm :262)',
  },
  sites_ftp_user_get: { permission: 'sites_ftp_user_get', params: ['primary_id'], source: 'interface/lib/classes/remote.d/sites.inc.php:286 (checkPerm :290)' },
  sites_ftp_user_add: {
    permission: 'sites_ftp_user_add', params: ['client_id', 'params'], form: 'ftp_user', source: 'interface/lib/classes/remote.d/sites.inc.php:300 (checkPerm :302)',
  },
  sites_ftp_user_update: {
    permission: 'sites_ftp_user_update', params: ['client_id', 'primary_id', 'params'], form: 'ftp_user', source: 'interface/lib/classes/remote.d/sites.inc.php:310 (checkPerm :312)',
  },
  sites_web_domain_backup_list: {
    permission: 'sites_web_domain_backup', params: ['site_id'], source: 'interface/lib/classes/remote.d/sites.inc.php:909 (checkPerm :913)',
  },
  sites_web_domain_backup: {
    permission: 'sites_web_domain_backup', params: ['primary_id', 'action_type'], source: 'interface/lib/classes/remote.d/sites.inc.php:923 (checkPerm :927)',
  },
  quota_get_by_user: { permission: 'quota_get_by_user', params: ['client_id'], source: 'interface/lib/classes/remote.d/sites.inc.php:967 (checkPerm :972)' },
  trafficquota_get_by_user: {
    permission: 'trafficquota_get_by_user', params: ['client_id', 'lastdays'], source: 'interface/lib/classes/remote.d/sites.inc.php:980 (checkPerm :985)',
  },
} as const satisfies Record<string, RemoteFunction>;

export type RemoteFunctionName = keyof typeof REMOTE_FUNCTIONS;

/** One validator of a form field, as tform_base::validateField runs it (interface/lib/classes/tform_base.inc.php:995-1320). */
export type FieldValidator =
  /** Fails on '' or a field not sent; message `<errmsg><br />\r\n` (tform_base.inc.php:1042). */
  | { type: 'NOTEMPTY'; errmsg: string }
  /** PHP regex with the 's' flag added; a field not sent is tested as '' (tform_base.inc.php:1005, 818). */
  | { type: 'REGEX'; regex: RegExp; errmsg: string }
  /** Non-empty values must be integers (tform_base.inc.php:1132). */
  | { type: 'ISINT'; errmsg: string }
  | { type: 'ISEMAILADDRESS'; errmsg: string }
  /** Same value in another row of the table (tform_base.inc.php:1016). */
  | { type: 'UNIQUE'; errmsg: string }
  /** A validator class of interface/lib/classes/validate_*.inc.php; its message format is its own. */
  | { type: 'CUSTOM'; check: CustomCheck; errmsg: string };

export type CustomCheck =
  /** validate_password.inc.php:106: at least min_password_length (default 8, auth.inc.php:214) characters; '' passes. */
  | 'password_check'
  /** validate_domain.inc.php:45 web_domain: empty, regex, uniqueness per server (the remote API always gets the 'domain' variant of the form). */
  | 'web_domain'
  /** validate_client.inc.php:36: no other sys_user of that name. */
  | 'username_unique'
  /** validate_ftpuser.inc.php:36 ftp_dir: the directory is the parent site's document_root or below it. */
  | 'ftp_dir';

export interface FormField {
  /** Line of the field (or of the statement adding its validators) in the form file. */
  line: number;
  validators: readonly FieldValidator[];
  /** PASSWORD fields: hashed on save, left alone when sent empty (tform_base.inc.php:1362). */
  password?: 'CRYPT' | 'MYSQL';
  /** SAVE filters applied before validation (tform_base.inc.php:815). */
  lowercase?: boolean;
}

export interface FormDef {
  file: string;
  table: string;
  /** Fields in the order of the form (remoting_lib::loadFormDef merges the tabs in order): validation messages come in this order. */
  fields: Readonly<Record<string, FormField>>;
}

const notEmpty = (errmsg: string): FieldValidator => ({ type: 'NOTEMPTY', errmsg });
const regex = (re: RegExp, errmsg: string): FieldValidator => ({ type: 'REGEX', regex: re, errmsg });
const PASSWORD_CHECK: FieldValidator = { type: 'CUSTOM', check: 'password_check', errmsg: 'weak_password_txt' };
const PM_NUMBER = /^([1-9][0-9]{0,10})$/s;
const QUOTA = /^(-1|[0-9]{1,10})$/s;

export const FORMS: Readonly<Record<FormName, FormDef>> = {
  client: {
    file: 'interface/web/client/form/client.tform.php',
    table: 'client',
    fields: {
      contact_name: { line: 141, validators: [notEmpty('contact_error_empty')] },
      username: {
        line: 185,
        validators: [
          notEmpty('username_error_empty'),
          { type: 'CUSTOM', check: 'username_unique', errmsg: 'username_error_unique' },
          regex(/^[\w.\-_]{0,64}$/s, 'username_error_regex'),
        ],
      },
      password: { line: 211, validators: [PASSWORD_CHECK], password: 'CRYPT' },
      language: { line: 231, validators: [notEmpty('language_error_empty')] },
      email: { line: 393, validators: [{ type: 'ISEMAILADDRESS', errmsg: 'email_error_isemail' }, notEmpty('email_error_empty')] },
      locked: { line: 658, validators: [] },
      template_master: { line: 712, validators: [] },
      default_webserver: { line: 1084, validators: [] },
      limit_web_domain: { line: 1112, validators: [{ type: 'ISINT', errmsg: 'limit_web_domain_error_notint' }] },
      limit_web_quota: { line: 1126, validators: [{ type: 'ISINT', errmsg: 'limit_web_quota_error_notint' }] },
      web_php_options: { line: 1140, validators: [notEmpty('web_php_options_notempty')] },
      limit_web_aliasdomain: { line: 1221, validators: [{ type: 'ISINT', errmsg: 'limit_web_aliasdomain_error_notint' }] },
      // Required although the driver gives no shell users: NOTEMPTY, and the remote API fills in no defaults.
      ssh_chroot: { line: 1277, validators: [notEmpty('ssh_chroot_notempty')] },
      limit_database: { line: 1439, validators: [{ type: 'ISINT', errmsg: 'limit_database_error_notint' }] },
      limit_traffic_quota: { line: 1516, validators: [{ type: 'ISINT', errmsg: 'limit_traffic_quota_error_notint' }] },
    },
  },
  web_vhost_domain: {
    // Without a panel session vhostdomain_type stays 'domain' (:40-56): aliasdomain_add is validated as a website.
    file: 'interface/web/sites/form/web_vhost_domain.tform.php',
    table: 'web_domain',
    fields: {
      server_id: { line: 316, validators: [notEmpty('no_server_error')] },
      domain: { line: 147, validators: [{ type: 'CUSTOM', check: 'web_domain', errmsg: 'domain_error_regex' }], lowercase: true },
      hd_quota: { line: 328, validators: [notEmpty('hd_quota_error_empty'), regex(QUOTA, 'hd_quota_error_regex')] },
      traffic_quota: { line: 194, validators: [notEmpty('traffic_quota_error_empty'), regex(QUOTA, 'traffic_quota_error_regex')] },
      web_folder: { line: 347, validators: [regex(/^((?!(.*\.\.)|(.*\.\/)|(.*\/\/))[^/][\w/_.-]{1,100})?$/s, 'web_folder_error_regex')] },
      backup_interval: { line: 703, validators: [] },
      backup_copies: { line: 709, validators: [] },
      document_root: { line: 803, validators: [notEmpty('documentroot_error_empty')] },
      system_user: { line: 814, validators: [notEmpty('sysuser_error_empty')] },
      system_group: { line: 832, validators: [notEmpty('sysgroup_error_empty')] },
      allow_override: { line: 850, validators: [notEmpty('allow_override_error_empty')] },
      pm_max_children: { line: 885, validators: [regex(PM_NUMBER, 'pm_max_children_error_regex')] },
      pm_start_servers: { line: 897, validators: [regex(PM_NUMBER, 'pm_start_servers_error_regex')] },
      pm_min_spare_servers: { line: 909, validators: [regex(PM_NUMBER, 'pm_min_spare_servers_error_regex')] },
      pm_max_spare_servers: { line: 921, validators: [regex(PM_NUMBER, 'pm_max_spare_servers_error_regex')] },
      pm_process_idle_timeout: { line: 933, validators: [regex(PM_NUMBER, 'pm_process_idle_timeout_error_regex')] },
      pm_max_requests: { line: 945, validators: [regex(/^([0-9]{1,11})$/s, 'pm_max_requests_error_regex')] },
      http_port: { line: 1042, validators: [regex(/^([0-9]{1,5})$/s, 'http_port_error_regex')] },
      https_port: { line: 1054, validators: [regex(/^([0-9]{1,5})$/s, 'https_port_error_regex')] },
      log_retention: { line: 1066, validators: [regex(/^([0-9]{1,4})$/s, 'log_retention_error_regex')] },
    },
  },
  database: {
    file: 'interface/web/sites/form/database.tform.php',
    table: 'web_database',
    fields: {
      database_name: { line: 109, validators: [notEmpty('database_name_error_empty'), regex(/^[a-zA-Z0-9_]{2,64}$/s, 'database_name_error_regex')] },
      database_quota: { line: 132, validators: [{ type: 'ISINT', errmsg: 'limit_database_quota_error_notint' }] },
    },
  },
  database_user: {
    file: 'interface/web/sites/form/database_user.tform.php',
    table: 'web_database_user',
    fields: {
      database_user: {
        line: 78,
        validators: [notEmpty('database_user_error_empty'), { type: 'UNIQUE', errmsg: 'database_user_error_unique' }, regex(/^[a-zA-Z0-9_]{2,64}$/s, 'database_user_error_regex')],
      },
      database_password: { line: 103, validators: [PASSWORD_CHECK], password: 'MYSQL' },
    },
  },
  ftp_user: {
    file: 'interface/web/sites/form/ftp_user.tform.php',
    table: 'ftp_user',
    fields: {
      username: { line: 89, validators: [{ type: 'UNIQUE', errmsg: 'username_error_unique' }, regex(/^[\w.\-@+]{0,64}$/s, 'username_error_regex')] },
      password: { line: 112, validators: [PASSWORD_CHECK], password: 'CRYPT' },
      quota_size: { line: 129, validators: [notEmpty('quota_size_error_empty'), regex(/^(-1|[0-9]{1,10})$/s, 'quota_size_error_regex')] },
      // The admin variant of the advanced tab (:155); the remote API always runs as admin (remoting_lib.inc.php:139).
      uid: { line: 165, validators: [notEmpty('uid_error_empty')] },
      gid: { line: 183, validators: [notEmpty('gid_error_empty')] },
      dir: {
        line: 201,
        validators: [
          notEmpty('directory_error_empty'),
          regex(/^\/[a-zA-Z0-9 .\-_/]{7,128}$/s, 'directory_error_regex'),
          { type: 'CUSTOM', check: 'ftp_dir', errmsg: 'directory_error_notinweb' },
        ],
      },
    },
  },
};

/** ISPConfig's English text of a failed password_check with the default settings (interface/lib/lang/en.lng:174, {chars} = 8). */
export const WEAK_PASSWORD_TEXT = 'The chosen password does not match the security guidelines. It has to be at least 8 chars in length.';
export const MIN_PASSWORD_LENGTH = 8;

/** Texts of the remoting base class and json.php the fake answers with, verbatim. */
export const PANEL_TEXTS = {
  // interface/lib/classes/json_handler.inc.php:48
  noMethod: 'Method not provided in json call',
  // interface/lib/classes/json_handler.inc.php:56
  invalidJson: 'The JSON data sent to the api is invalid',
  // interface/lib/classes/json_handler.inc.php:59 ("Method <name> does not exist", code invalid_method)
  unknownMethod: (method: string) => `Method ${method} does not exist`,
  // interface/lib/classes/remoting.inc.php:240
  loginFailed: 'The login failed. Username or password wrong.',
  // interface/lib/classes/remoting.inc.php:565
  sessionEmpty: 'The SessionID is empty.',
  // interface/lib/classes/remoting.inc.php:570
  sessionNotString: 'Wrong SessionID datatype.',
  // interface/lib/classes/remoting.inc.php:598
  sessionExpired: 'The Session is expired or does not exist.',
  // e.g. interface/lib/classes/remote.d/sites.inc.php:50
  permissionDenied: 'You do not have the permissions to access this function.',
  // interface/lib/classes/remoting_lib.inc.php:131
  invalidClientId: (clientId: number) => `Invalid client_id ${clientId}`,
  // interface/lib/classes/remoting_lib.inc.php:245
  invalidId: 'The ID has to be > 0 or -1.',
  // interface/lib/classes/remoting.inc.php:283 (appended to the form's messages)
  duplicateUsername: 'Duplicate username<br />',
  // interface/lib/classes/remote.d/client.inc.php:152
  noGroup: 'There is no group for this client ID.',
  // interface/lib/classes/remote.d/client.inc.php:556
  noClient: 'There is no user account for this client_id',
  // interface/lib/classes/remote.d/sites.inc.php:120
  duplicateDatabase: 'There is already a database with that name on the same server.',
  // interface/lib/classes/remote.d/sites.inc.php:942
  invalidBackup: (id: unknown) => `Invalid or non existant backup_id ${String(id)}`,
  // interface/lib/classes/remote.d/sites.inc.php:947
  invalidAction: (action: unknown) => `Invalid action_type ${String(action)}`,
  // interface/lib/classes/remote.d/sites.inc.php:954
  pendingAction: (action: string) => `There is already a pending ${action} action`,
  // interface/lib/classes/remote.d/admin.inc.php:154
  invalidParameter: 'Invalid function parameter.',
} as const;

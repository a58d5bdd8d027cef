/**
 * Every country of ISO 3166-1 alpha-2 (the 249 officially assigned codes) with its German name, for the
 * profile's and the registration's country list (issue 24): the 27 EU member states first, then the
 * rest, each part alphabetical by its German name (DIN 5007-1: Ä as A, Å as A).
 *
 * A static table, not `Intl.DisplayNames(['de'], { type: 'region' })`: the names come from the ICU/CLDR
 * data the runtime ships, which differs between Node 20, Chromium, Firefox and Safari versions, and the
 * server renders the same list the browser shows. The names were taken once from CLDR (Node 20.20, ICU
 * 77) and are kept here; "Sonderverwaltungsregion Hongkong/Macau" shortened to "Hongkong"/"Macau".
 *
 * Not in the list, on purpose:
 * - XI (Northern Ireland) is no ISO 3166-1 code but a VAT prefix that VIES knows for trade in goods only
 *   (Windsor Framework). For services, our only kind of supply, Northern Ireland is part of the United
 *   Kingdom: a customer there chooses "Vereinigtes Königreich" (GB), which is not in the EU.
 * - XK (Kosovo) is a user-assigned code, not an ISO 3166-1 assignment.
 * Zod-free, so the web app's forms can import it cheaply.
 */

/** The 27 EU member states by ISO code (Greece is GR here; its VAT prefix is EL, see `vatPrefix`). */
export const EU_COUNTRY_CODES = ['AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'DK', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'HU', 'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK'] as const;
export type EuCountryCode = (typeof EU_COUNTRY_CODES)[number];

/** [code, German name], in display order: the EU first, then the rest, each alphabetical. */
const COUNTRY_TABLE = [
  ['BE', 'Belgien'],
  ['BG', 'Bulgarien'],
  ['DK', 'Dänemark'],
  ['DE', 'Deutschland'],
  ['EE', 'Estland'],
  ['FI', 'Finnland'],
  ['FR', 'Frankreich'],
  ['GR', 'Griechenland'],
  ['IE', 'Irland'],
  ['IT', 'Italien'],
  ['HR', 'Kroatien'],
  ['LV', 'Lettland'],
  ['LT', 'Litauen'],
  ['LU', 'Luxemburg'],
  ['MT', 'Malta'],
  ['NL', 'Niederlande'],
  ['AT', 'Österreich'],
  ['PL', 'Polen'],
  ['PT', 'Portugal'],
  ['RO', 'Rumänien'],
  ['SE', 'Schweden'],
  ['SK', 'Slowakei'],
  ['SI', 'Slowenien'],
  ['ES', 'Spanien'],
  ['CZ', 'Tschechien'],
  ['HU', 'Ungarn'],
  ['CY', 'Zypern'],
  // the rest of the world
  ['AF', 'Afghanistan'],
  ['EG', 'Ägypten'],
  ['AX', 'Ålandinseln'],
  ['AL', 'Albanien'],
  ['DZ', 'Algerien'],
  ['AS', 'Amerikanisch-Samoa'],
  ['VI', 'Amerikanische Jungferninseln'],
  ['UM', 'Amerikanische Überseeinseln'],
  ['AD', 'Andorra'],
  ['AO', 'Angola'],
  ['AI', 'Anguilla'],
  ['AQ', 'Antarktis'],
  ['AG', 'Antigua und Barbuda'],
  ['GQ', 'Äquatorialguinea'],
  ['AR', 'Argentinien'],
  ['AM', 'Armenien'],
  ['AW', 'Aruba'],
  ['AZ', 'Aserbaidschan'],
  ['ET', 'Äthiopien'],
  ['AU', 'Australien'],
  ['BS', 'Bahamas'],
  ['BH', 'Bahrain'],
  ['BD', 'Bangladesch'],
  ['BB', 'Barbados'],
  ['BY', 'Belarus'],
  ['BZ', 'Belize'],
  ['BJ', 'Benin'],
  ['BM', 'Bermuda'],
  ['BT', 'Bhutan'],
  ['BO', 'Bolivien'],
  ['BA', 'Bosnien und Herzegowina'],
  ['BW', 'Botsuana'],
  ['BV', 'Bouvetinsel'],
  ['BR', 'Brasilien'],
  ['VG', 'Britische Jungferninseln'],
  ['IO', 'Britisches Territorium im Indischen Ozean'],
  ['BN', 'Brunei Darussalam'],
  ['BF', 'Burkina Faso'],
  ['BI', 'Burundi'],
  ['CV', 'Cabo Verde'],
  ['CL', 'Chile'],
  ['CN', 'China'],
  ['CK', 'Cookinseln'],
  ['CR', 'Costa Rica'],
  ['CI', 'Côte d’Ivoire'],
  ['CW', 'Curaçao'],
  ['DM', 'Dominica'],
  ['DO', 'Dominikanische Republik'],
  ['DJ', 'Dschibuti'],
  ['EC', 'Ecuador'],
  ['SV', 'El Salvador'],
  ['ER', 'Eritrea'],
  ['SZ', 'Eswatini'],
  ['FK', 'Falklandinseln'],
  ['FO', 'Färöer'],
  ['FJ', 'Fidschi'],
  ['GF', 'Französisch-Guayana'],
  ['PF', 'Französisch-Polynesien'],
  ['TF', 'Französische Süd- und Antarktisgebiete'],
  ['GA', 'Gabun'],
  ['GM', 'Gambia'],
  ['GE', 'Georgien'],
  ['GH', 'Ghana'],
  ['GI', 'Gibraltar'],
  ['GD', 'Grenada'],
  ['GL', 'Grönland'],
  ['GP', 'Guadeloupe'],
  ['GU', 'Guam'],
  ['GT', 'Guatemala'],
  ['GG', 'Guernsey'],
  ['GN', 'Guinea'],
  ['GW', 'Guinea-Bissau'],
  ['GY', 'Guyana'],
  ['HT', 'Haiti'],
  ['HM', 'Heard und McDonaldinseln'],
  ['HN', 'Honduras'],
  ['HK', 'Hongkong'],
  ['IN', 'Indien'],
  ['ID', 'Indonesien'],
  ['IQ', 'Irak'],
  ['IR', 'Iran'],
  ['IS', 'Island'],
  ['IM', 'Isle of Man'],
  ['IL', 'Israel'],
  ['JM', 'Jamaika'],
  ['JP', 'Japan'],
  ['YE', 'Jemen'],
  ['JE', 'Jersey'],
  ['JO', 'Jordanien'],
  ['KY', 'Kaimaninseln'],
  ['KH', 'Kambodscha'],
  ['CM', 'Kamerun'],
  ['CA', 'Kanada'],
  ['BQ', 'Karibische Niederlande'],
  ['KZ', 'Kasachstan'],
  ['QA', 'Katar'],
  ['KE', 'Kenia'],
  ['KG', 'Kirgisistan'],
  ['KI', 'Kiribati'],
  ['CC', 'Kokosinseln'],
  ['CO', 'Kolumbien'],
  ['KM', 'Komoren'],
  ['CG', 'Kongo-Brazzaville'],
  ['CD', 'Kongo-Kinshasa'],
  ['CU', 'Kuba'],
  ['KW', 'Kuwait'],
  ['LA', 'Laos'],
  ['LS', 'Lesotho'],
  ['LB', 'Libanon'],
  ['LR', 'Liberia'],
  ['LY', 'Libyen'],
  ['LI', 'Liechtenstein'],
  ['MO', 'Macau'],
  ['MG', 'Madagaskar'],
  ['MW', 'Malawi'],
  ['MY', 'Malaysia'],
  ['MV', 'Malediven'],
  ['ML', 'Mali'],
  ['MA', 'Marokko'],
  ['MH', 'Marshallinseln'],
  ['MQ', 'Martinique'],
  ['MR', 'Mauretanien'],
  ['MU', 'Mauritius'],
  ['YT', 'Mayotte'],
  ['MX', 'Mexiko'],
  ['FM', 'Mikronesien'],
  ['MC', 'Monaco'],
  ['MN', 'Mongolei'],
  ['ME', 'Montenegro'],
  ['MS', 'Montserrat'],
  ['MZ', 'Mosambik'],
  ['MM', 'Myanmar'],
  ['NA', 'Namibia'],
  ['NR', 'Nauru'],
  ['NP', 'Nepal'],
  ['NC', 'Neukaledonien'],
  ['NZ', 'Neuseeland'],
  ['NI', 'Nicaragua'],
  ['NE', 'Niger'],
  ['NG', 'Nigeria'],
  ['NU', 'Niue'],
  ['KP', 'Nordkorea'],
  ['MP', 'Nördliche Marianen'],
  ['MK', 'Nordmazedonien'],
  ['NF', 'Norfolkinsel'],
  ['NO', 'Norwegen'],
  ['OM', 'Oman'],
  ['PK', 'Pakistan'],
  ['PS', 'Palästinensische Autonomiegebiete'],
  ['PW', 'Palau'],
  ['PA', 'Panama'],
  ['PG', 'Papua-Neuguinea'],
  ['PY', 'Paraguay'],
  ['PE', 'Peru'],
  ['PH', 'Philippinen'],
  ['PN', 'Pitcairninseln'],
  ['PR', 'Puerto Rico'],
  ['MD', 'Republik Moldau'],
  ['RE', 'Réunion'],
  ['RW', 'Ruanda'],
  ['RU', 'Russland'],
  ['SB', 'Salomonen'],
  ['ZM', 'Sambia'],
  ['WS', 'Samoa'],
  ['SM', 'San Marino'],
  ['ST', 'São Tomé und Príncipe'],
  ['SA', 'Saudi-Arabien'],
  ['CH', 'Schweiz'],
  ['SN', 'Senegal'],
  ['RS', 'Serbien'],
  ['SC', 'Seychellen'],
  ['SL', 'Sierra Leone'],
  ['ZW', 'Simbabwe'],
  ['SG', 'Singapur'],
  ['SX', 'Sint Maarten'],
  ['SO', 'Somalia'],
  ['SJ', 'Spitzbergen und Jan Mayen'],
  ['LK', 'Sri Lanka'],
  ['BL', 'St. Barthélemy'],
  ['SH', 'St. Helena'],
  ['KN', 'St. Kitts und Nevis'],
  ['LC', 'St. Lucia'],
  ['MF', 'St. Martin'],
  ['PM', 'St. Pierre und Miquelon'],
  ['VC', 'St. Vincent und die Grenadinen'],
  ['ZA', 'Südafrika'],
  ['SD', 'Sudan'],
  ['GS', 'Südgeorgien und die Südlichen Sandwichinseln'],
  ['KR', 'Südkorea'],
  ['SS', 'Südsudan'],
  ['SR', 'Suriname'],
  ['SY', 'Syrien'],
  ['TJ', 'Tadschikistan'],
  ['TW', 'Taiwan'],
  ['TZ', 'Tansania'],
  ['TH', 'Thailand'],
  ['TL', 'Timor-Leste'],
  ['TG', 'Togo'],
  ['TK', 'Tokelau'],
  ['TO', 'Tonga'],
  ['TT', 'Trinidad und Tobago'],
  ['TD', 'Tschad'],
  ['TN', 'Tunesien'],
  ['TR', 'Türkei'],
  ['TM', 'Turkmenistan'],
  ['TC', 'Turks- und Caicosinseln'],
  ['TV', 'Tuvalu'],
  ['UG', 'Uganda'],
  ['UA', 'Ukraine'],
  ['UY', 'Uruguay'],
  ['UZ', 'Usbekistan'],
  ['VU', 'Vanuatu'],
  ['VA', 'Vatikanstadt'],
  ['VE', 'Venezuela'],
  ['AE', 'Vereinigte Arabische Emirate'],
  ['US', 'Vereinigte Staaten'],
  ['GB', 'Vereinigtes Königreich'],
  ['VN', 'Vietnam'],
  ['WF', 'Wallis und Futuna'],
  ['CX', 'Weihnachtsinsel'],
  ['EH', 'Westsahara'],
  ['CF', 'Zentralafrikanische Republik'],
] as const;

export type CountryCode = (typeof COUNTRY_TABLE)[number][0];

export interface CountryOption {
  code: CountryCode;
  /** German name. */
  label: string;
  eu: boolean;
}

const euCodes: ReadonlySet<string> = new Set(EU_COUNTRY_CODES);

/** Every ISO 3166-1 country with its German name, the EU first (issue 24: "the EU first, then the rest"). */
export const COUNTRY_OPTIONS: readonly CountryOption[] = COUNTRY_TABLE.map(([code, label]) => ({ code, label, eu: euCodes.has(code) }));
export const COUNTRY_CODES: readonly CountryCode[] = COUNTRY_TABLE.map(([code]) => code);

const labelByCode: ReadonlyMap<string, string> = new Map(COUNTRY_TABLE);

export function isCountryCode(code: string): code is CountryCode {
  return labelByCode.has(code);
}

/** The German name of a country, or the code itself when it is unknown. */
export function countryName(code: string): string {
  return labelByCode.get(code) ?? code;
}

/**
 * Is the country one of the 27 EU member states? Only the states themselves: their territories that
 * have an ISO code of their own (Åland AX, the French overseas departments GF/GP/MQ/RE/YT, St. Martin
 * MF) lie outside the EU's VAT area (Art. 6 of Directive 2006/112/EC) and count as third countries
 * here, as does Northern Ireland (XI) for services.
 */
export function isEuMember(code: string): code is EuCountryCode {
  return euCodes.has(code);
}

/** The VAT-ID prefix of an EU member state: Greece uses EL (VIES), every other state its ISO code. */
export function vatPrefix(code: EuCountryCode): string {
  return code === 'GR' ? 'EL' : code;
}

/**
 * Targets of the synthetic demo dataset. National median levels are rounded figures near those in public
 * physician compensation reports (2024-2025); they are demo inputs, not published facts.
 *
 * `median`: target national median total compensation (USD, full-time). `weight`: relative share of
 * reports. `sigma`: log-scale spread. `wrvuRate`: typical total compensation per wRVU (USD).
 */
export interface SpecialtyProfile {
  median: number;
  weight: number;
  sigma: number;
  wrvuRate: number;
}

export const SPECIALTY_PROFILES: Readonly<Record<string, SpecialtyProfile>> = {
  'allergy-immunology': { median: 320_000, weight: 0.5, sigma: 0.24, wrvuRate: 58 },
  anesthesiology: { median: 450_000, weight: 5, sigma: 0.22, wrvuRate: 72 },
  cardiology: { median: 520_000, weight: 4, sigma: 0.27, wrvuRate: 68 },
  'cardiothoracic-surgery': { median: 700_000, weight: 0.5, sigma: 0.3, wrvuRate: 85 },
  'colon-rectal-surgery': { median: 500_000, weight: 0.15, sigma: 0.27, wrvuRate: 76 },
  'critical-care': { median: 420_000, weight: 1, sigma: 0.22, wrvuRate: 62 },
  dermatology: { median: 470_000, weight: 2, sigma: 0.3, wrvuRate: 66 },
  'emergency-medicine': { median: 380_000, weight: 6, sigma: 0.2, wrvuRate: 52 },
  endocrinology: { median: 280_000, weight: 1, sigma: 0.22, wrvuRate: 57 },
  'family-medicine': { median: 280_000, weight: 12, sigma: 0.22, wrvuRate: 54 },
  gastroenterology: { median: 560_000, weight: 2.5, sigma: 0.28, wrvuRate: 70 },
  'general-surgery': { median: 450_000, weight: 3.5, sigma: 0.26, wrvuRate: 74 },
  'geriatric-medicine': { median: 260_000, weight: 0.4, sigma: 0.2, wrvuRate: 52 },
  'hematology-oncology': { median: 490_000, weight: 2.5, sigma: 0.27, wrvuRate: 66 },
  'hospital-medicine': { median: 330_000, weight: 6, sigma: 0.18, wrvuRate: 60 },
  'infectious-disease': { median: 280_000, weight: 0.8, sigma: 0.22, wrvuRate: 56 },
  'internal-medicine': { median: 290_000, weight: 11, sigma: 0.22, wrvuRate: 55 },
  'interventional-cardiology': { median: 640_000, weight: 1, sigma: 0.27, wrvuRate: 75 },
  'interventional-radiology': { median: 560_000, weight: 0.6, sigma: 0.25, wrvuRate: 73 },
  'medical-genetics': { median: 270_000, weight: 0.008, sigma: 0.2, wrvuRate: 50 },
  neonatology: { median: 330_000, weight: 0.6, sigma: 0.2, wrvuRate: 60 },
  nephrology: { median: 330_000, weight: 1.2, sigma: 0.25, wrvuRate: 59 },
  neurology: { median: 340_000, weight: 2.5, sigma: 0.24, wrvuRate: 60 },
  neurosurgery: { median: 750_000, weight: 0.7, sigma: 0.3, wrvuRate: 88 },
  'obstetrics-gynecology': { median: 360_000, weight: 4, sigma: 0.24, wrvuRate: 62 },
  'occupational-medicine': { median: 290_000, weight: 0.3, sigma: 0.2, wrvuRate: 50 },
  ophthalmology: { median: 430_000, weight: 2, sigma: 0.3, wrvuRate: 64 },
  'orthopedic-surgery': { median: 580_000, weight: 3.5, sigma: 0.29, wrvuRate: 80 },
  otolaryngology: { median: 470_000, weight: 1.3, sigma: 0.27, wrvuRate: 71 },
  'pain-medicine': { median: 480_000, weight: 0.6, sigma: 0.28, wrvuRate: 69 },
  pathology: { median: 340_000, weight: 1.5, sigma: 0.22, wrvuRate: 63 },
  'pediatric-surgery': { median: 600_000, weight: 0.12, sigma: 0.25, wrvuRate: 82 },
  pediatrics: { median: 255_000, weight: 6, sigma: 0.21, wrvuRate: 53 },
  'physical-medicine-rehabilitation': { median: 340_000, weight: 1, sigma: 0.23, wrvuRate: 58 },
  'plastic-surgery': { median: 560_000, weight: 1, sigma: 0.32, wrvuRate: 78 },
  psychiatry: { median: 330_000, weight: 5, sigma: 0.22, wrvuRate: 65 },
  pulmonology: { median: 420_000, weight: 1.5, sigma: 0.24, wrvuRate: 63 },
  'radiation-oncology': { median: 560_000, weight: 0.6, sigma: 0.26, wrvuRate: 67 },
  radiology: { median: 520_000, weight: 4, sigma: 0.24, wrvuRate: 62 },
  rheumatology: { median: 300_000, weight: 0.8, sigma: 0.22, wrvuRate: 57 },
  'sports-medicine': { median: 310_000, weight: 0.5, sigma: 0.22, wrvuRate: 56 },
  'urgent-care': { median: 290_000, weight: 1.5, sigma: 0.18, wrvuRate: 48 },
  urology: { median: 500_000, weight: 1.5, sigma: 0.27, wrvuRate: 75 },
  'vascular-surgery': { median: 540_000, weight: 0.5, sigma: 0.27, wrvuRate: 79 },
};

/** Relative share of reports per state (roughly population, in millions; DC raised for its many physicians). */
export const STATE_WEIGHTS: Readonly<Record<string, number>> = {
  AL: 5.1, AK: 0.7, AZ: 7.4, AR: 3.1, CA: 39, CO: 5.9, CT: 3.6, DE: 1, DC: 1.2, FL: 22, GA: 11, HI: 1.4,
  ID: 2, IL: 12.5, IN: 6.9, IA: 3.2, KS: 2.9, KY: 4.5, LA: 4.6, ME: 1.4, MD: 6.2, MA: 7, MI: 10, MN: 5.7,
  MS: 2.9, MO: 6.2, MT: 1.1, NE: 2, NV: 3.2, NH: 1.4, NJ: 9.3, NM: 2.1, NY: 19.6, NC: 10.8, ND: 0.8,
  OH: 11.8, OK: 4.1, OR: 4.2, PA: 13, RI: 1.1, SC: 5.4, SD: 0.9, TN: 7.1, TX: 30, UT: 3.4, VT: 0.65,
  VA: 8.7, WA: 7.8, WV: 1.8, WI: 5.9, WY: 0.58,
};

/** Two cities per state (largest city and capital, or second city), for synthetic teaching hospitals. */
export const STATE_CITIES: Readonly<Record<string, readonly [string, string]>> = {
  AL: ['Birmingham', 'Montgomery'], AK: ['Anchorage', 'Fairbanks'], AZ: ['Phoenix', 'Tucson'],
  AR: ['Little Rock', 'Fayetteville'], CA: ['Los Angeles', 'Sacramento'], CO: ['Denver', 'Aurora'],
  CT: ['Hartford', 'New Haven'], DE: ['Wilmington', 'Dover'], DC: ['Washington', 'Washington'],
  FL: ['Miami', 'Gainesville'], GA: ['Atlanta', 'Augusta'], HI: ['Honolulu', 'Hilo'], ID: ['Boise', 'Pocatello'],
  IL: ['Chicago', 'Springfield'], IN: ['Indianapolis', 'Fort Wayne'], IA: ['Des Moines', 'Iowa City'],
  KS: ['Wichita', 'Kansas City'], KY: ['Louisville', 'Lexington'], LA: ['New Orleans', 'Baton Rouge'],
  ME: ['Portland', 'Bangor'], MD: ['Baltimore', 'Bethesda'], MA: ['Boston', 'Worcester'],
  MI: ['Detroit', 'Ann Arbor'], MN: ['Minneapolis', 'Rochester'], MS: ['Jackson', 'Hattiesburg'],
  MO: ['St. Louis', 'Kansas City'], MT: ['Billings', 'Missoula'], NE: ['Omaha', 'Lincoln'],
  NV: ['Las Vegas', 'Reno'], NH: ['Manchester', 'Lebanon'], NJ: ['Newark', 'New Brunswick'],
  NM: ['Albuquerque', 'Las Cruces'], NY: ['New York', 'Rochester'], NC: ['Charlotte', 'Durham'],
  ND: ['Fargo', 'Grand Forks'], OH: ['Columbus', 'Cleveland'], OK: ['Oklahoma City', 'Tulsa'],
  OR: ['Portland', 'Eugene'], PA: ['Philadelphia', 'Pittsburgh'], RI: ['Providence', 'Warwick'],
  SC: ['Charleston', 'Columbia'], SD: ['Sioux Falls', 'Rapid City'], TN: ['Nashville', 'Memphis'],
  TX: ['Houston', 'Dallas'], UT: ['Salt Lake City', 'Provo'], VT: ['Burlington', 'Montpelier'],
  VA: ['Richmond', 'Charlottesville'], WA: ['Seattle', 'Spokane'], WV: ['Morgantown', 'Charleston'],
  WI: ['Milwaukee', 'Madison'], WY: ['Cheyenne', 'Casper'],
};

/** Synthetic OEWS national medians (shaped like the May 2024 release: most physician wages top-coded). */
export const DEMO_BLS: Readonly<Record<string, number | '#' | '*'>> = {
  '29-1211': '#', '29-1212': '#', '29-1213': '#', '29-1214': '#', '29-1215': 231_770,
  '29-1216': 239_000, '29-1217': '#', '29-1218': '#', '29-1221': 205_860, '29-1222': 236_390,
  '29-1223': '#', '29-1224': '#', '29-1229': '#', '29-1241': '#', '29-1242': '#', '29-1243': '*', '29-1248': '#',
};

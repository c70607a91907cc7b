/**
 * The 50 states and the District of Columbia, loaded into every fresh reports DB (`physpay init`).
 *
 * Regions are the four US Census Bureau regions. `col` is a cost-of-living index (US = 100): an
 * approximation of the BEA Regional Price Parities, all items, for 2022, transcribed offline and rounded
 * to one decimal. It is good enough to rank states; load the official table with
 * `physpay import col` before publishing real figures (the source and year travel with each row).
 */
export const REGIONS = ['Northeast', 'Midwest', 'South', 'West'] as const;
export type Region = (typeof REGIONS)[number];

export interface StateRef {
  code: string;
  name: string;
  region: Region;
  col: number;
}

export const DEFAULT_COL_SOURCE = 'BEA Regional Price Parities, all items (approximation, rounded)';
export const DEFAULT_COL_YEAR = 2022;

export const STATES: readonly StateRef[] = [
  { code: 'AL', name: 'Alabama', region: 'South', col: 88.0 },
  { code: 'AK', name: 'Alaska', region: 'West', col: 102.5 },
  { code: 'AZ', name: 'Arizona', region: 'West', col: 99.9 },
  { code: 'AR', name: 'Arkansas', region: 'South', col: 86.9 },
  { code: 'CA', name: 'California', region: 'West', col: 112.6 },
  { code: 'CO', name: 'Colorado', region: 'West', col: 104.3 },
  { code: 'CT', name: 'Connecticut', region: 'Northeast', col: 104.8 },
  { code: 'DE', name: 'Delaware', region: 'South', col: 98.5 },
  { code: 'DC', name: 'District of Columbia', region: 'South', col: 110.8 },
  { code: 'FL', name: 'Florida', region: 'South', col: 101.5 },
  { code: 'GA', name: 'Georgia', region: 'South', col: 96.5 },
  { code: 'HI', name: 'Hawaii', region: 'West', col: 110.3 },
  { code: 'ID', name: 'Idaho', region: 'West', col: 94.0 },
  { code: 'IL', name: 'Illinois', region: 'Midwest', col: 101.3 },
  { code: 'IN', name: 'Indiana', region: 'Midwest', col: 91.2 },
  { code: 'IA', name: 'Iowa', region: 'Midwest', col: 88.6 },
  { code: 'KS', name: 'Kansas', region: 'Midwest', col: 90.1 },
  { code: 'KY', name: 'Kentucky', region: 'South', col: 88.4 },
  { code: 'LA', name: 'Louisiana', region: 'South', col: 90.6 },
  { code: 'ME', name: 'Maine', region: 'Northeast', col: 97.5 },
  { code: 'MD', name: 'Maryland', region: 'South', col: 105.5 },
  { code: 'MA', name: 'Massachusetts', region: 'Northeast', col: 108.9 },
  { code: 'MI', name: 'Michigan', region: 'Midwest', col: 93.7 },
  { code: 'MN', name: 'Minnesota', region: 'Midwest', col: 97.6 },
  { code: 'MS', name: 'Mississippi', region: 'South', col: 87.0 },
  { code: 'MO', name: 'Missouri', region: 'Midwest', col: 90.1 },
  { code: 'MT', name: 'Montana', region: 'West', col: 94.8 },
  { code: 'NE', name: 'Nebraska', region: 'Midwest', col: 90.6 },
  { code: 'NV', name: 'Nevada', region: 'West', col: 99.0 },
  { code: 'NH', name: 'New Hampshire', region: 'Northeast', col: 104.5 },
  { code: 'NJ', name: 'New Jersey', region: 'Northeast', col: 109.1 },
  { code: 'NM', name: 'New Mexico', region: 'West', col: 92.2 },
  { code: 'NY', name: 'New York', region: 'Northeast', col: 108.9 },
  { code: 'NC', name: 'North Carolina', region: 'South', col: 94.2 },
  { code: 'ND', name: 'North Dakota', region: 'Midwest', col: 89.0 },
  { code: 'OH', name: 'Ohio', region: 'Midwest', col: 91.3 },
  { code: 'OK', name: 'Oklahoma', region: 'South', col: 88.4 },
  { code: 'OR', name: 'Oregon', region: 'West', col: 104.0 },
  { code: 'PA', name: 'Pennsylvania', region: 'Northeast', col: 97.0 },
  { code: 'RI', name: 'Rhode Island', region: 'Northeast', col: 99.6 },
  { code: 'SC', name: 'South Carolina', region: 'South', col: 93.0 },
  { code: 'SD', name: 'South Dakota', region: 'Midwest', col: 88.7 },
  { code: 'TN', name: 'Tennessee', region: 'South', col: 92.5 },
  { code: 'TX', name: 'Texas', region: 'South', col: 97.1 },
  { code: 'UT', name: 'Utah', region: 'West', col: 97.4 },
  { code: 'VT', name: 'Vermont', region: 'Northeast', col: 98.0 },
  { code: 'VA', name: 'Virginia', region: 'South', col: 101.7 },
  { code: 'WA', name: 'Washington', region: 'West', col: 108.2 },
  { code: 'WV', name: 'West Virginia', region: 'South', col: 87.1 },
  { code: 'WI', name: 'Wisconsin', region: 'Midwest', col: 92.9 },
  { code: 'WY', name: 'Wyoming', region: 'West', col: 92.1 },
];

/**
 * The specialty catalog loaded into every fresh reports DB (`physpay init`).
 *
 * `soc` is the BLS Standard Occupational Classification (2018) code used for the wage-survey comparison.
 * `socMatch` says how closely the occupation matches the specialty: `exact` when the SOC occupation is the
 * specialty itself, `broad` when the specialty is one of several inside a catch-all occupation
 * (29-1229 "Physicians, All Other", 29-1248 "Surgeons, All Other"). The comparison note says so.
 *
 * Aliases are common spellings accepted by the importers, the APIs and the tool server. They are matched
 * after normalisation (lower case, "&" -> "and", every run of non-alphanumerics -> one space), so
 * "OB/GYN", "ob-gyn" and "obgyn" need one entry each at most.
 */
export interface SpecialtyRef {
  slug: string;
  name: string;
  soc: string;
  socMatch: 'exact' | 'broad';
  aliases: string[];
}

export const SPECIALTIES: readonly SpecialtyRef[] = [
  { slug: 'allergy-immunology', name: 'Allergy and Immunology', soc: '29-1229', socMatch: 'broad', aliases: ['allergy', 'allergist', 'immunology', 'allergy immunology'] },
  { slug: 'anesthesiology', name: 'Anesthesiology', soc: '29-1211', socMatch: 'exact', aliases: ['anesthesia', 'anesthesiologist', 'anaesthesiology', 'anaesthesia'] },
  { slug: 'cardiology', name: 'Cardiology', soc: '29-1212', socMatch: 'exact', aliases: ['cardiologist', 'cardiovascular disease', 'general cardiology', 'cardio'] },
  { slug: 'cardiothoracic-surgery', name: 'Cardiothoracic Surgery', soc: '29-1248', socMatch: 'broad', aliases: ['cardiac surgery', 'thoracic surgery', 'ct surgery', 'cardiothoracic surgeon', 'heart surgeon'] },
  { slug: 'colon-rectal-surgery', name: 'Colon and Rectal Surgery', soc: '29-1248', socMatch: 'broad', aliases: ['colorectal surgery', 'colorectal surgeon', 'colon rectal surgery'] },
  { slug: 'critical-care', name: 'Critical Care Medicine', soc: '29-1229', socMatch: 'broad', aliases: ['critical care', 'intensivist', 'icu', 'intensive care'] },
  { slug: 'dermatology', name: 'Dermatology', soc: '29-1213', socMatch: 'exact', aliases: ['dermatologist', 'derm'] },
  { slug: 'emergency-medicine', name: 'Emergency Medicine', soc: '29-1214', socMatch: 'exact', aliases: ['em', 'er', 'emergency physician', 'emergency room', 'ed physician'] },
  { slug: 'endocrinology', name: 'Endocrinology', soc: '29-1229', socMatch: 'broad', aliases: ['endocrinologist', 'endo', 'diabetes and endocrinology'] },
  { slug: 'family-medicine', name: 'Family Medicine', soc: '29-1215', socMatch: 'exact', aliases: ['family practice', 'fm', 'family physician', 'family doctor', 'gp', 'general practice'] },
  { slug: 'gastroenterology', name: 'Gastroenterology', soc: '29-1229', socMatch: 'broad', aliases: ['gi', 'gastroenterologist', 'gastro'] },
  { slug: 'general-surgery', name: 'General Surgery', soc: '29-1248', socMatch: 'broad', aliases: ['surgery', 'general surgeon'] },
  { slug: 'geriatric-medicine', name: 'Geriatric Medicine', soc: '29-1229', socMatch: 'broad', aliases: ['geriatrics', 'geriatrician'] },
  { slug: 'hematology-oncology', name: 'Hematology and Oncology', soc: '29-1229', socMatch: 'broad', aliases: ['oncology', 'heme onc', 'hem onc', 'hematology', 'medical oncology', 'oncologist'] },
  { slug: 'hospital-medicine', name: 'Hospital Medicine', soc: '29-1216', socMatch: 'broad', aliases: ['hospitalist', 'hospitalists'] },
  { slug: 'infectious-disease', name: 'Infectious Disease', soc: '29-1229', socMatch: 'broad', aliases: ['id', 'infectious diseases', 'infectious disease specialist'] },
  { slug: 'internal-medicine', name: 'Internal Medicine', soc: '29-1216', socMatch: 'exact', aliases: ['im', 'general internal medicine', 'internist'] },
  { slug: 'interventional-cardiology', name: 'Interventional Cardiology', soc: '29-1212', socMatch: 'broad', aliases: ['interventional cardiologist'] },
  { slug: 'interventional-radiology', name: 'Interventional Radiology', soc: '29-1224', socMatch: 'broad', aliases: ['ir', 'interventional radiologist', 'vascular and interventional radiology'] },
  { slug: 'medical-genetics', name: 'Medical Genetics', soc: '29-1229', socMatch: 'broad', aliases: ['genetics', 'clinical genetics', 'geneticist'] },
  { slug: 'neonatology', name: 'Neonatology', soc: '29-1229', socMatch: 'broad', aliases: ['neonatal perinatal medicine', 'neonatologist', 'nicu'] },
  { slug: 'nephrology', name: 'Nephrology', soc: '29-1229', socMatch: 'broad', aliases: ['nephrologist', 'renal'] },
  { slug: 'neurology', name: 'Neurology', soc: '29-1217', socMatch: 'exact', aliases: ['neurologist', 'neuro'] },
  { slug: 'neurosurgery', name: 'Neurosurgery', soc: '29-1248', socMatch: 'broad', aliases: ['neurological surgery', 'neurosurgeon', 'brain surgeon'] },
  { slug: 'obstetrics-gynecology', name: 'Obstetrics and Gynecology', soc: '29-1218', socMatch: 'exact', aliases: ['ob gyn', 'obgyn', 'obstetrics', 'gynecology', 'obstetrician', 'gynecologist', 'ob'] },
  { slug: 'occupational-medicine', name: 'Occupational Medicine', soc: '29-1229', socMatch: 'broad', aliases: ['occupational health', 'occ med'] },
  { slug: 'ophthalmology', name: 'Ophthalmology', soc: '29-1241', socMatch: 'exact', aliases: ['ophthalmologist', 'eye surgeon', 'opthalmology'] },
  { slug: 'orthopedic-surgery', name: 'Orthopedic Surgery', soc: '29-1242', socMatch: 'exact', aliases: ['orthopedics', 'orthopaedics', 'orthopaedic surgery', 'ortho', 'orthopedic surgeon', 'orthopedist'] },
  { slug: 'otolaryngology', name: 'Otolaryngology', soc: '29-1248', socMatch: 'broad', aliases: ['ent', 'ear nose and throat', 'otolaryngologist', 'otorhinolaryngology'] },
  { slug: 'pain-medicine', name: 'Pain Medicine', soc: '29-1229', socMatch: 'broad', aliases: ['pain management', 'interventional pain'] },
  { slug: 'pathology', name: 'Pathology', soc: '29-1222', socMatch: 'exact', aliases: ['pathologist', 'anatomic pathology', 'clinical pathology'] },
  { slug: 'pediatric-surgery', name: 'Pediatric Surgery', soc: '29-1243', socMatch: 'exact', aliases: ['pediatric surgeon', 'paediatric surgery'] },
  { slug: 'pediatrics', name: 'Pediatrics', soc: '29-1221', socMatch: 'exact', aliases: ['general pediatrics', 'pediatrician', 'peds', 'paediatrics'] },
  { slug: 'physical-medicine-rehabilitation', name: 'Physical Medicine and Rehabilitation', soc: '29-1229', socMatch: 'broad', aliases: ['pm and r', 'pmr', 'pm r', 'physiatry', 'physiatrist', 'rehabilitation medicine'] },
  { slug: 'plastic-surgery', name: 'Plastic Surgery', soc: '29-1248', socMatch: 'broad', aliases: ['plastics', 'plastic surgeon', 'plastic and reconstructive surgery'] },
  { slug: 'psychiatry', name: 'Psychiatry', soc: '29-1223', socMatch: 'exact', aliases: ['psychiatrist', 'psych', 'adult psychiatry'] },
  { slug: 'pulmonology', name: 'Pulmonology', soc: '29-1229', socMatch: 'broad', aliases: ['pulmonary', 'pulmonologist', 'pulmonary medicine', 'pulmonary critical care', 'pulm'] },
  { slug: 'radiation-oncology', name: 'Radiation Oncology', soc: '29-1229', socMatch: 'broad', aliases: ['radiation oncologist', 'rad onc'] },
  { slug: 'radiology', name: 'Diagnostic Radiology', soc: '29-1224', socMatch: 'exact', aliases: ['diagnostic radiology', 'radiologist', 'rads'] },
  { slug: 'rheumatology', name: 'Rheumatology', soc: '29-1229', socMatch: 'broad', aliases: ['rheumatologist', 'rheum'] },
  { slug: 'sports-medicine', name: 'Sports Medicine', soc: '29-1229', socMatch: 'broad', aliases: ['sports medicine physician', 'primary care sports medicine'] },
  { slug: 'urgent-care', name: 'Urgent Care', soc: '29-1229', socMatch: 'broad', aliases: ['urgent care medicine', 'urgent care physician'] },
  { slug: 'urology', name: 'Urology', soc: '29-1248', socMatch: 'broad', aliases: ['urologist'] },
  { slug: 'vascular-surgery', name: 'Vascular Surgery', soc: '29-1248', socMatch: 'broad', aliases: ['vascular surgeon'] },
];

/** SOC titles as BLS names them, for the demo BLS table and for display when no OEWS row is loaded. */
export const SOC_TITLES: Readonly<Record<string, string>> = {
  '29-1211': 'Anesthesiologists',
  '29-1212': 'Cardiologists',
  '29-1213': 'Dermatologists',
  '29-1214': 'Emergency Medicine Physicians',
  '29-1215': 'Family Medicine Physicians',
  '29-1216': 'General Internal Medicine Physicians',
  '29-1217': 'Neurologists',
  '29-1218': 'Obstetricians and Gynecologists',
  '29-1221': 'Pediatricians, General',
  '29-1222': 'Physicians, Pathologists',
  '29-1223': 'Psychiatrists',
  '29-1224': 'Radiologists',
  '29-1229': 'Physicians, All Other',
  '29-1241': 'Ophthalmologists, Except Pediatric',
  '29-1242': 'Orthopedic Surgeons, Except Pediatric',
  '29-1243': 'Pediatric Surgeons',
  '29-1248': 'Surgeons, All Other',
};

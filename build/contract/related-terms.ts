/**
 * Search vocabulary shared by the tool server's close matches (server/open-data/resolve.ts) and the public
 * site's search box (build/pages/search-match.ts). A specialty's own names and aliases are the reference
 * data's (build/db/reference/specialties.ts, via the reports DB); these lists are the words that are not
 * names of anything.
 *
 * RELATED_TERMS: words people type for a specialty that are not names of it: body parts, patients, conditions and
 * neighbouring professions. They never resolve (a CRNA's pay is not an anesthesiologist's): they only make
 * the close-match list of a 404 / 400 / tool error point somewhere useful instead of being empty.
 * Keys are specialty slugs; terms are matched after the usual normalisation.
 */
export const RELATED_TERMS: Readonly<Record<string, readonly string[]>> = {
  anesthesiology: ['crna', 'nurse anesthetist', 'anesthetist', 'caa', 'anesthesiologist assistant'],
  cardiology: ['heart', 'cardiac', 'cardiovascular', 'ekg', 'echo'],
  'cardiothoracic-surgery': ['heart', 'lung', 'chest'],
  dermatology: ['skin', 'hair', 'mohs'],
  'emergency-medicine': ['emergency', 'trauma', 'ed'],
  endocrinology: ['diabetes', 'thyroid', 'hormones'],
  'family-medicine': ['primary care', 'gp', 'general practice', 'general practitioner', 'pcp'],
  gastroenterology: ['gut', 'stomach', 'liver', 'colonoscopy', 'gi'],
  'hematology-oncology': ['cancer', 'oncology', 'oncologist', 'blood'],
  'hospital-medicine': ['hospital', 'inpatient'],
  'infectious-disease': ['infection', 'hiv'],
  'internal-medicine': ['primary care', 'adult medicine', 'pcp'],
  nephrology: ['kidney', 'dialysis', 'renal'],
  neurology: ['brain', 'nerves', 'stroke', 'epilepsy'],
  neurosurgery: ['brain', 'spine', 'spine surgery'],
  'obstetrics-gynecology': ['women', 'pregnancy', 'midwife', 'gyn', 'labor and delivery'],
  ophthalmology: ['eye', 'eyes', 'vision', 'retina', 'cataract', 'optometry', 'optometrist'],
  'orthopedic-surgery': ['bone', 'bones', 'joint', 'joints', 'spine', 'sports surgery'],
  otolaryngology: ['ear', 'nose', 'throat', 'sinus'],
  pathology: ['lab', 'laboratory', 'autopsy'],
  pediatrics: ['children', 'child', 'kids', 'baby', 'babies', 'pediatric'],
  'physical-medicine-rehabilitation': ['rehab', 'rehabilitation', 'physiatry', 'physical therapy'],
  'plastic-surgery': ['cosmetic', 'cosmetic surgery', 'reconstructive'],
  psychiatry: ['mental health', 'psychology', 'psychologist', 'therapist', 'addiction'],
  pulmonology: ['lung', 'lungs', 'respiratory', 'asthma'],
  'radiation-oncology': ['cancer', 'radiation', 'radiotherapy'],
  radiology: ['imaging', 'x ray', 'xray', 'mri', 'ct', 'ultrasound'],
  rheumatology: ['arthritis', 'lupus', 'autoimmune'],
  'sports-medicine': ['sports', 'athletes'],
  'urgent-care': ['walk in', 'clinic'],
  urology: ['bladder', 'prostate', 'kidney stones'],
  'vascular-surgery': ['veins', 'arteries', 'vascular'],
  neonatology: ['newborn', 'nicu', 'newborns'],
  'geriatric-medicine': ['elderly', 'older adults', 'aging'],
  'pain-medicine': ['pain', 'pain management'],
};

/**
 * Words for resident pay (the teaching hospitals' published PGY scales, /residency): the site search sends
 * them to the residency pages ("PGY-2", "residents texas"). "pgy 2" and "pgy2" are one word after the
 * search's normalisation.
 */
export const RESIDENCY_TERMS: readonly string[] = [
  'resident', 'residents', 'residency', 'residencies', 'pgy', 'pgy1', 'pgy2', 'pgy3', 'pgy4', 'pgy5', 'pgy6', 'pgy7', 'pgy8',
  'intern', 'interns', 'internship', 'housestaff', 'trainee', 'trainees', 'gme', 'fellow', 'fellows', 'fellowship', 'stipend',
];

/** Word lists and weights for the synthetic sample. Every name here is invented. */

type Weighted<T> = ReadonlyArray<readonly [T, number]>;

/** Agency -> share of awards and its branches (weights approximate SBIR.gov's 1983-2025 mix). */
export const AGENCIES: Weighted<{ name: string; code: string; branches: Weighted<string> }> = [
  [{ name: 'Department of Defense', code: 'DOD', branches: [['Air Force', 30], ['Navy', 25], ['Army', 20], ['Defense Advanced Research Projects Agency', 8], ['Missile Defense Agency', 6], ['Special Operations Command', 3], ['Defense Threat Reduction Agency', 2], ['Defense Health Agency', 3], ['Chemical and Biological Defense', 2]] }, 48],
  [{ name: 'Department of Health and Human Services', code: 'HHS', branches: [['National Institutes of Health', 90], ['Centers for Disease Control and Prevention', 5], ['Food and Drug Administration', 5]] }, 20],
  [{ name: 'National Aeronautics and Space Administration', code: 'NASA', branches: [['', 1]] }, 8],
  [{ name: 'Department of Energy', code: 'DOE', branches: [['', 9], ['ARPA-E', 1]] }, 7],
  [{ name: 'National Science Foundation', code: 'NSF', branches: [['', 1]] }, 7],
  [{ name: 'Department of Agriculture', code: 'USDA', branches: [['', 1]] }, 2.5],
  [{ name: 'Department of Homeland Security', code: 'DHS', branches: [['', 3], ['Science and Technology Directorate', 1]] }, 1.5],
  [{ name: 'Department of Commerce', code: 'DOC', branches: [['National Oceanic and Atmospheric Administration', 1], ['National Institute of Standards and Technology', 1]] }, 1.5],
  [{ name: 'Department of Education', code: 'ED', branches: [['Institute of Education Sciences', 1]] }, 1],
  [{ name: 'Environmental Protection Agency', code: 'EPA', branches: [['', 1]] }, 1],
  [{ name: 'Department of Transportation', code: 'DOT', branches: [['', 1]] }, 1],
];

/** [full name, 2-letter code, a city, ZIP prefix] */
export const STATES: ReadonlyArray<readonly [string, string, string, string]> = [
  ['California', 'CA', 'SAN DIEGO', '92'], ['Massachusetts', 'MA', 'WATERTOWN', '02'], ['Virginia', 'VA', 'HERNDON', '20'],
  ['Maryland', 'MD', 'COLUMBIA', '21'], ['Texas', 'TX', 'AUSTIN', '78'], ['Colorado', 'CO', 'BOULDER', '80'],
  ['Ohio', 'OH', 'DAYTON', '45'], ['New York', 'NY', 'ROCHESTER', '14'], ['Pennsylvania', 'PA', 'PITTSBURGH', '15'],
  ['Florida', 'FL', 'ORLANDO', '32'], ['Michigan', 'MI', 'ANN ARBOR', '48'], ['Washington', 'WA', 'SEATTLE', '98'],
  ['Alabama', 'AL', 'HUNTSVILLE', '35'], ['New Jersey', 'NJ', 'PRINCETON', '08'], ['New Mexico', 'NM', 'ALBUQUERQUE', '87'],
  ['Arizona', 'AZ', 'TUCSON', '85'], ['Georgia', 'GA', 'ATLANTA', '30'], ['North Carolina', 'NC', 'DURHAM', '27'],
  ['Connecticut', 'CT', 'NEW HAVEN', '06'], ['Utah', 'UT', 'SALT LAKE CITY', '84'], ['Minnesota', 'MN', 'MINNEAPOLIS', '55'],
  ['Oregon', 'OR', 'PORTLAND', '97'], ['Illinois', 'IL', 'CHICAGO', '60'], ['Tennessee', 'TN', 'KNOXVILLE', '37'],
];

export const COMPANY_HEADS = ['Aurora', 'Boreal', 'Cobalt', 'Delta', 'Ember', 'Fathom', 'Granite', 'Helix', 'Ion', 'Juniper', 'Kestrel', 'Lumen', 'Meridian', 'Nimbus', 'Orbit', 'Photon', 'Quill', 'Radiant', 'Summit', 'Tesla Ridge', 'Umbra', 'Vector', 'Willow', 'Xenon', 'Yarrow', 'Zephyr'];
export const COMPANY_TAILS = ['Photonics', 'Analytics', 'Biosciences', 'Materials', 'Robotics', 'Systems', 'Technologies', 'Labs', 'Dynamics', 'Sensors', 'Energy', 'Therapeutics', 'Aerospace', 'Microdevices', 'Software'];
export const COMPANY_FORMS = ['Inc.', 'INC.', 'LLC', 'Corporation', 'Corp.', 'Co.'];

export const FIRST_NAMES = ['Alex', 'Blair', 'Casey', 'Dana', 'Emery', 'Finley', 'Gray', 'Harper', 'Indy', 'Jordan', 'Kai', 'Logan', 'Morgan', 'Noel', 'Oakley', 'Parker', 'Quinn', 'Reese', 'Sage', 'Taylor'];
export const LAST_NAMES = ['Abernathy', 'Brightwater', 'Castellano', 'Drummond', 'Eastwood', 'Fairbanks', 'Galloway', 'Hollister', 'Iverson', 'Jablonski', 'Kowalczyk', 'Lindqvist', 'Marchetti', 'Nakamura', 'Okonkwo', 'Petrov', 'Quintero', 'Rasmussen', 'Sandoval', 'Thornbury'];
export const TITLES = ['President', 'CEO', 'CTO', 'Principal Scientist', 'Chief Engineer', 'Research Director', 'Dr', ''];

export const TITLE_WORDS = ['Adaptive', 'Autonomous', 'Compact', 'High-Efficiency', 'Low-Cost', 'Scalable', 'Resilient', 'Real-Time', 'Multi-Modal', 'Hypersonic', 'Quantum', 'Biodegradable', 'Wearable', 'Machine-Learning'];
export const TITLE_NOUNS = ['Sensor Network', 'Battery Cathode', 'Imaging System', 'Vaccine Platform', 'Radar Processor', 'Drone Swarm', 'Water Purifier', 'Thermal Coating', 'Diagnostic Assay', 'Satellite Antenna', 'Data Labeling Pipeline', 'Turbulence Model'];

/** Sentences for abstracts; some carry commas and double quotes so the CSV must quote and escape them. */
export const SENTENCES = [
  'This Small Business Innovation Research Phase I project will demonstrate the feasibility of a novel approach.',
  'The proposed innovation addresses a critical gap in current capabilities, reducing cost, weight and power.',
  'Preliminary results show a 40% improvement over the state of the art in laboratory conditions.',
  'The team will design, build and test a prototype and validate it against government requirements.',
  'Commercial applications include healthcare, energy, transportation and advanced manufacturing.',
  'The "digital twin" will let operators predict failures before they occur.',
  'Phase II will mature the technology to TRL 6 and transition it to a program of record.',
  'Key risks are identified early and mitigated through an iterative, test-driven development plan.',
  'The approach combines physics-based models with machine learning trained on field data.',
  'Broader impacts include workforce training, STEM outreach and reduced environmental footprint.',
  'Anticipated benefits: lower sustainment costs; faster deployment; improved safety.',
  'We will partner with a university research institution to characterize the materials.',
];

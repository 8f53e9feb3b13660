// The units the checks understand: UN/ECE Recommendation 20 codes (what e-invoices send), their
// official symbols, and the words and abbreviations people write in price lists, in the eight
// languages of our users (en, no, sv, da, fi, de, fr, nl). docs/checks.md, "Units".
//
// - `code`, `symbol` and `name` are Rec 20's own: a unit written as one of them is read with certainty.
// - `words` are what people write; reading one is a mapping the alert names (never `certain`).
// - `family`: codes suppliers use for the same thing (C62 "one", H87 "piece", EA "each"); two
//   codes of one family are taken as the same unit, and that too is named as a guess.
// Words are compared folded (lower case, no diacritics, no trailing dot); a word must belong to
// one code only (test/unit/checks/units.test.ts checks this).

export type UnitLanguage = 'en' | 'no' | 'sv' | 'da' | 'fi' | 'de' | 'fr' | 'nl';

export interface UnitEntry {
  code: string;
  name: string;
  symbol?: string;
  family?: string;
  words: Partial<Record<UnitLanguage, string[]>>;
}

export const UNIT_TABLE: readonly UnitEntry[] = [
  // Counted things.
  {
    code: 'H87',
    name: 'piece',
    family: 'piece',
    words: {
      en: ['piece', 'pieces', 'pc', 'pcs', 'pce', 'nos', 'item', 'items'],
      no: ['stk', 'stykk', 'stykker'],
      sv: ['st', 'styck', 'stycken', 'stck'],
      da: ['styk', 'stykker'],
      fi: ['kpl', 'kappale', 'kappaletta'],
      de: ['stuck', 'stk', 'stueck'],
      fr: ['piece', 'pieces'],
      nl: ['stuk', 'stuks'],
    },
  },
  {
    code: 'C62',
    name: 'one',
    family: 'piece',
    words: {
      en: ['unit', 'units', 'user', 'users', 'seat', 'seats', 'licence', 'licences', 'license', 'licenses', 'subscription', 'subscriptions'],
      no: ['enhet', 'enheter', 'bruker', 'brukere', 'lisens', 'lisenser', 'abonnement'],
      sv: ['enhet', 'enheter', 'anvandare', 'licens', 'licenser'],
      da: ['enhed', 'enheder', 'bruger', 'brugere'],
      fi: ['yksikko', 'kayttaja', 'kayttajaa', 'kayttajat', 'lisenssi', 'lisenssia', 'tilaus'],
      de: ['einheit', 'einheiten', 'benutzer', 'nutzer', 'lizenz', 'lizenzen', 'abo'],
      fr: ['unite', 'unites', 'utilisateur', 'utilisateurs', 'licences', 'abonnements'],
      nl: ['eenheid', 'eenheden', 'gebruiker', 'gebruikers', 'licentie', 'licenties'],
    },
  },
  { code: 'EA', name: 'each', family: 'piece', words: { en: ['each', 'ea'] } },
  {
    code: 'PR',
    name: 'pair',
    words: { en: ['pair', 'pairs', 'pr'], no: ['par'], sv: ['par'], da: ['par'], fi: ['pari', 'paria'], de: ['paar', 'paare'], fr: ['paire', 'paires'], nl: ['paren'] },
  },
  {
    code: 'SET',
    name: 'set',
    words: { en: ['set', 'sets', 'kit', 'kits'], no: ['sett'], sv: ['sats', 'satser'], da: ['saet'], fi: ['sarja', 'setti'], de: ['satz', 'satze'], fr: ['ensemble', 'jeu'], nl: ['stel'] },
  },
  // Packaging.
  {
    code: 'PK',
    name: 'package',
    family: 'pack',
    words: {
      en: ['pack', 'packs', 'package', 'packages', 'pkg', 'pkt'],
      no: ['pakke', 'pakker', 'pakning', 'pakn', 'forpakning', 'fpk'],
      sv: ['forp', 'forpackning', 'forpackningar', 'fp', 'paket'],
      da: ['pakning', 'pk', 'emballage'],
      fi: ['pakkaus', 'pakkausta', 'pak', 'paketti'],
      de: ['packung', 'packungen', 'pckg', 'verpackungseinheit', 've'],
      fr: ['paquet', 'paquets', 'pqt', 'conditionnement'],
      nl: ['pak', 'pakken', 'pakket', 'verpakking', 'verp'],
    },
  },
  { code: 'PA', name: 'packet', family: 'pack', words: { en: ['packet', 'packets'] } },
  {
    code: 'BX',
    name: 'box',
    words: { en: ['box', 'boxes'], no: ['eske', 'esker'], sv: ['ask', 'askar', 'lada'], da: ['aeske', 'aesker'], fi: ['laatikko', 'ltk', 'rasia', 'rs'], de: ['schachtel', 'kiste'], fr: ['boite', 'boites'], nl: ['doos', 'dozen'] },
  },
  {
    code: 'CT',
    name: 'carton',
    words: { en: ['carton', 'cartons', 'ctn'], no: ['kartong', 'kartonger'], sv: ['kartonger'], da: ['karton'], fi: ['pahvilaatikko'], de: ['kartons'], fr: ['cartons'], nl: ['kartonnen'] },
  },
  {
    code: 'RO',
    name: 'roll',
    words: { en: ['roll', 'rolls'], no: ['rull', 'ruller', 'rl'], sv: ['rulle', 'rullar'], da: ['rulle'], fi: ['rulla', 'rullaa'], de: ['rolle', 'rollen'], fr: ['rouleau', 'rouleaux'], nl: ['rol', 'rollen'] },
  },
  {
    code: 'BG',
    name: 'bag',
    words: { en: ['bag', 'bags'], no: ['pose', 'poser', 'sekk'], sv: ['pase', 'pasar', 'sack'], da: ['poser'], fi: ['pussi', 'saekki'], de: ['beutel', 'tute'], fr: ['sac', 'sachet'], nl: ['zak', 'zakken'] },
  },
  {
    code: 'BO',
    name: 'bottle',
    words: { en: ['bottle', 'bottles'], no: ['flaske', 'flasker'], sv: ['flaska', 'flaskor'], da: ['flasker'], fi: ['pullo', 'pulloa'], de: ['flasche', 'flaschen'], fr: ['bouteille', 'bouteilles'], nl: ['fles', 'flessen'] },
  },
  {
    code: 'CA',
    name: 'can',
    words: { en: ['can', 'cans', 'tin', 'tins'], no: ['boks', 'bokser'], sv: ['burk', 'burkar'], da: ['daase', 'dase'], fi: ['tolkki', 'purkki'], de: ['dose', 'dosen'], nl: ['blik', 'blikken'] },
  },
  {
    code: 'PX',
    name: 'pallet',
    words: { en: ['pallet', 'pallets', 'plt'], no: ['pall', 'paller'], sv: ['pallar'], da: ['palle', 'paller'], fi: ['lava', 'lavaa'], de: ['palette', 'paletten'], fr: ['palettes'], nl: ['pallets'] },
  },
  // Time.
  {
    code: 'MIN',
    name: 'minute',
    symbol: 'min',
    words: { en: ['minute', 'minutes', 'mins'], no: ['minutt', 'minutter'], sv: ['minut', 'minuter'], da: ['minutter'], fi: ['minuutti', 'minuuttia'], de: ['minuten'], fr: ['minutes'], nl: ['minuut', 'minuten'] },
  },
  {
    code: 'HUR',
    name: 'hour',
    symbol: 'h',
    words: {
      en: ['hour', 'hours', 'hr', 'hrs'],
      no: ['time', 'timer'],
      sv: ['timme', 'timmar', 'tim'],
      da: ['timer'],
      fi: ['tunti', 'tuntia'],
      de: ['stunde', 'stunden', 'std'],
      fr: ['heure', 'heures'],
      nl: ['uur', 'uren'],
    },
  },
  {
    code: 'DAY',
    name: 'day',
    symbol: 'd',
    words: { en: ['days'], no: ['dag', 'dager', 'dogn'], sv: ['dagar', 'dygn'], da: ['dage'], fi: ['paiva', 'paivaa', 'pv', 'vrk'], de: ['tag', 'tage'], fr: ['jour', 'jours', 'j'], nl: ['dagen'] },
  },
  {
    code: 'WEE',
    name: 'week',
    words: { en: ['week', 'weeks', 'wk', 'wks'], no: ['uke', 'uker'], sv: ['vecka', 'veckor'], da: ['uge', 'uger'], fi: ['viikko', 'viikkoa', 'vko'], de: ['woche', 'wochen'], fr: ['semaine', 'semaines'], nl: ['weken'] },
  },
  {
    code: 'MON',
    name: 'month',
    symbol: 'mo',
    words: {
      en: ['month', 'months', 'mth', 'mths'],
      no: ['maned', 'maneder', 'mnd', 'mnd.'],
      sv: ['manad', 'manader', 'man'],
      da: ['maaned', 'maaneder', 'mdr', 'md'],
      fi: ['kuukausi', 'kuukautta', 'kk'],
      de: ['monat', 'monate'],
      fr: ['mois'],
      nl: ['maand', 'maanden'],
    },
  },
  {
    code: 'ANN',
    name: 'year',
    symbol: 'y',
    words: { en: ['year', 'years', 'yr', 'yrs'], no: ['ar', 'aar'], sv: ['ar'], da: ['aar'], fi: ['vuosi', 'vuotta'], de: ['jahr', 'jahre'], fr: ['an', 'ans', 'annee', 'annees'], nl: ['jaar', 'jaren'] },
  },
  // Mass, length, area, volume, energy.
  { code: 'GRM', name: 'gram', symbol: 'g', words: { en: ['gram', 'grams', 'gr'], no: ['gramm'], de: ['gramm'], fr: ['gramme', 'grammes'], fi: ['gramma'] } },
  { code: 'KGM', name: 'kilogram', symbol: 'kg', words: { en: ['kilogram', 'kilograms', 'kilo', 'kilos', 'kgs'], no: ['kilogramm'], de: ['kilogramm'], fr: ['kilogramme', 'kilogrammes'], fi: ['kilogramma', 'kiloa'], nl: ['kilogrammen'] } },
  { code: 'TNE', name: 'tonne', symbol: 't', words: { en: ['tonne', 'tonnes', 'ton', 'tons'], no: ['tonn'], fi: ['tonni', 'tonnia'], de: ['tonnen'], nl: ['tonnen'] } },
  { code: 'MLT', name: 'millilitre', symbol: 'ml', words: { en: ['millilitre', 'milliliter'] } },
  { code: 'LTR', name: 'litre', symbol: 'l', words: { en: ['litre', 'litres', 'liter', 'liters', 'ltr', 'lit'], fi: ['litra', 'litraa'], fr: ['litres'], nl: ['liters'] } },
  { code: 'MMT', name: 'millimetre', symbol: 'mm', words: { en: ['millimetre', 'millimeter'] } },
  { code: 'CMT', name: 'centimetre', symbol: 'cm', words: { en: ['centimetre', 'centimeter'] } },
  {
    code: 'MTR',
    name: 'metre',
    symbol: 'm',
    words: { en: ['metre', 'metres', 'meter', 'meters', 'lm'], no: ['lopemeter', 'lpm'], sv: ['lopmeter'], da: ['lobende meter'], fi: ['metri', 'metria', 'jm'], de: ['laufmeter', 'lfm'], fr: ['metre', 'metres'], nl: ['strekkende meter'] },
  },
  { code: 'KMT', name: 'kilometre', symbol: 'km', words: { en: ['kilometre', 'kilometres', 'kilometer', 'kilometers'], fi: ['kilometri'] } },
  { code: 'MTK', name: 'square metre', symbol: 'm2', words: { en: ['sqm', 'square metre', 'square meter', 'm²'], no: ['kvm', 'kvadratmeter'], sv: ['kvm', 'kvadratmeter'], da: ['kvm'], fi: ['neliometri', 'neliota'], de: ['qm', 'quadratmeter'], fr: ['metre carre', 'metres carres'], nl: ['vierkante meter'] } },
  { code: 'MTQ', name: 'cubic metre', symbol: 'm3', words: { en: ['cbm', 'cubic metre', 'cubic meter', 'm³'], no: ['kubikkmeter', 'kbm'], sv: ['kubikmeter'], fi: ['kuutiometri', 'kuutio'], de: ['kubikmeter'], fr: ['metre cube', 'metres cubes'], nl: ['kubieke meter'] } },
  { code: 'KWH', name: 'kilowatt hour', symbol: 'kW·h', words: { en: ['kwh', 'kilowatt hour', 'kilowatt hours'], fi: ['kilowattitunti'], de: ['kilowattstunde'] } },
  { code: 'MWH', name: 'megawatt hour', symbol: 'MW·h', words: { en: ['mwh', 'megawatt hour'] } },
  // Data.
  { code: '4L', name: 'megabyte', symbol: 'MB', words: { en: ['megabyte', 'megabytes'], fi: ['megatavu'] } },
  { code: 'E34', name: 'gigabyte', symbol: 'GB', words: { en: ['gigabyte', 'gigabytes', 'gbyte'], fi: ['gigatavu'] } },
  { code: 'E35', name: 'terabyte', symbol: 'TB', words: { en: ['terabyte', 'terabytes', 'tbyte'], fi: ['teratavu'] } },
  // Agreed sums.
  { code: 'LS', name: 'lump sum', words: { en: ['lump sum', 'lumpsum', 'fixed price', 'flat fee'], no: ['rundsum', 'fastpris'], sv: ['klumpsumma', 'fast pris'], da: ['fast pris'], fi: ['kiintea hinta', 'kertamaksu'], de: ['pauschale', 'pauschal', 'psch', 'pausch'], fr: ['forfait', 'forfaitaire'], nl: ['vaste prijs'] } },
];

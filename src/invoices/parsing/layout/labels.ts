/**
 * The label dictionaries of the layout reader, as data: for each field and each table column
 * role, the words suppliers print for it in English, Norwegian, Swedish, Danish, Finnish,
 * German, French and Dutch. Terms are matched on normalized text (`normalizeLabel`): lower
 * case, punctuation (. : # ( ) /) as spaces, so "Rechnungs-Nr.:" is "rechnungs nr".
 */

export type Language = 'en' | 'no' | 'sv' | 'da' | 'fi' | 'de' | 'fr' | 'nl';
export const LANGUAGES: readonly Language[] = ['en', 'no', 'sv', 'da', 'fi', 'de', 'fr', 'nl'];

export type HeaderField =
  | 'invoiceNumber'
  | 'issueDate'
  | 'dueDate'
  | 'orderReference'
  | 'contractReference'
  | 'buyerReference'
  | 'currency'
  | 'orgNumber'
  | 'vatId'
  | 'supplier'
  | 'buyer'
  | 'paymentTerms';

export type TotalField = 'net' | 'vat' | 'gross' | 'due' | 'vatBase' | 'carryForward' | 'prepaid' | 'rounding';

export type ColumnRole = 'position' | 'itemNumber' | 'description' | 'quantity' | 'unit' | 'unitPrice' | 'discount' | 'amount' | 'vatRate' | 'vatAmount' | 'grossAmount';

type Dictionary<K extends string> = Record<K, Partial<Record<Language, readonly string[]>>>;

export const HEADER_LABELS: Dictionary<HeaderField> = {
  invoiceNumber: {
    en: ['tax invoice', 'invoice number', 'invoice no', 'invoice nr', 'invoice num', 'invoice id', 'inv no', 'invoice', 'credit note number', 'credit note no', 'credit note', 'credit memo no', 'document number', 'document no', 'number', 'no'],
    no: ['fakturanummer', 'fakturanr', 'faktura nr', 'faktura', 'kreditnotanummer', 'kreditnota nr', 'kreditnotanr', 'kreditnota', 'nummer'],
    sv: ['fakturanummer', 'fakturanr', 'faktura nr', 'fakturanr', 'kreditfakturanummer', 'kreditfaktura nr', 'faktura', 'nummer'],
    da: ['fakturanummer', 'fakturanr', 'faktura nr', 'kreditnotanummer', 'kreditnota nr', 'faktura', 'nummer', 'nr'],
    fi: ['laskun numero', 'laskunumero', 'laskun nro', 'lasku nro', 'lasku nr', 'hyvityslaskun numero', 'hyvityslasku nro', 'lasku', 'numero'],
    de: ['rechnungsnummer', 'rechnungs nr', 'rechnungsnr', 'rechnung nr', 'rechnung', 'gutschriftsnummer', 'gutschrift nr', 'gutschrift', 'belegnummer', 'beleg nr', 'nummer', 'nr'],
    fr: ['numéro de facture', 'n° de facture', 'n° facture', 'facture n°', 'facture no', 'facture numéro', 'facture', 'numéro d avoir', 'avoir n°', 'avoir', 'numéro', 'n°'],
    nl: ['factuurnummer', 'factuur nr', 'factuurnr', 'factuur', 'creditnotanummer', 'creditnota nr', 'creditnota', 'nummer', 'nr'],
  },
  issueDate: {
    en: ['invoice date', 'date of issue', 'issue date', 'date issued', 'issued on', 'issued', 'credit note date', 'document date', 'tax point date', 'date'],
    no: ['fakturadato', 'fakturadatum', 'dato', 'utstedt'],
    sv: ['fakturadatum', 'datum', 'utfärdad'],
    da: ['fakturadato', 'dato', 'udstedt'],
    fi: ['laskun päivämäärä', 'laskun pvm', 'laskupäivä', 'laskutuspäivä', 'päivämäärä', 'päiväys', 'pvm'],
    de: ['rechnungsdatum', 'belegdatum', 'ausstellungsdatum', 'datum'],
    fr: ['date de facture', 'date de facturation', 'date d émission', 'date facture', 'date'],
    nl: ['factuurdatum', 'datum'],
  },
  dueDate: {
    en: ['due date', 'payment due', 'payment due date', 'date due', 'pay by', 'due by', 'due on', 'due'],
    no: ['forfallsdato', 'forfallsdag', 'forfall', 'betalingsfrist'],
    sv: ['förfallodatum', 'förfallodag', 'förfaller', 'betala senast'],
    da: ['forfaldsdato', 'forfaldsdag', 'forfalder', 'betalingsdato', 'sidste rettidige betalingsdag', 'betales senest'],
    fi: ['eräpäivä', 'erääntymispäivä', 'maksettava viimeistään'],
    de: ['fälligkeitsdatum', 'fällig am', 'fällig bis', 'zahlbar bis', 'fälligkeit', 'fällig'],
    fr: ['date d échéance', 'échéance', 'date limite de paiement', 'à payer avant le', 'payable avant le'],
    nl: ['vervaldatum', 'uiterste betaaldatum', 'te betalen voor', 'vervaldag'],
  },
  orderReference: {
    en: ['order number', 'order no', 'order nr', 'order ref', 'order reference', 'purchase order', 'purchase order no', 'po number', 'po no', 'po', 'p o', 'p o no', 'p o number', 'your order', 'your order no', 'your reference', 'your ref', 'order'],
    no: ['ordrenummer', 'ordrenr', 'ordre nr', 'bestillingsnummer', 'bestillingsnr', 'innkjøpsordre', 'deres ref', 'deres referanse', 'deres bestilling', 'ordre', 'bestilling'],
    sv: ['ordernummer', 'ordernr', 'order nr', 'beställningsnummer', 'beställningsnr', 'beställning', 'er referens', 'er ref', 'ert ordernr', 'inköpsorder', 'order'],
    da: ['ordrenummer', 'ordrenr', 'ordre nr', 'rekvisitionsnummer', 'rekvisition', 'jeres ref', 'deres ref', 'bestillingsnummer', 'ordre'],
    fi: ['tilausnumero', 'tilaus nro', 'tilausnro', 'ostotilaus', 'viitteenne', 'tilauksenne', 'tilaus'],
    de: ['bestellnummer', 'bestell nr', 'bestellnr', 'auftragsnummer', 'auftrag nr', 'auftragsnr', 'ihre bestellung', 'ihre bestellnummer', 'ihre referenz', 'ihr zeichen', 'bestellung', 'auftrag'],
    fr: ['numéro de commande', 'n° de commande', 'n° commande', 'bon de commande', 'votre commande', 'votre référence', 'votre réf', 'commande n°', 'commande'],
    nl: ['ordernummer', 'order nr', 'bestelnummer', 'bestelnr', 'inkoopordernummer', 'inkooporder', 'uw referentie', 'uw ref', 'uw bestelling', 'bestelling', 'order'],
  },
  contractReference: {
    en: ['contract number', 'contract no', 'contract ref', 'contract', 'agreement number', 'agreement no', 'agreement'],
    no: ['avtalenummer', 'avtalenr', 'avtale nr', 'avtale', 'kontrakt', 'kontraktsnummer'],
    sv: ['avtalsnummer', 'avtalsnr', 'avtal nr', 'avtal', 'kontrakt', 'kontraktsnummer'],
    da: ['aftalenummer', 'aftalenr', 'aftale nr', 'aftale', 'kontrakt', 'kontraktnummer'],
    fi: ['sopimusnumero', 'sopimus nro', 'sopimus'],
    de: ['vertragsnummer', 'vertrags nr', 'vertrag nr', 'vertrag', 'rahmenvertrag'],
    fr: ['numéro de contrat', 'n° de contrat', 'n° contrat', 'contrat'],
    nl: ['contractnummer', 'contract nr', 'contract', 'overeenkomst'],
  },
  buyerReference: {
    en: ['customer number', 'customer no', 'customer id', 'account number', 'account no', 'customer ref'],
    no: ['kundenummer', 'kundenr', 'kunde nr'],
    sv: ['kundnummer', 'kundnr', 'kund nr'],
    da: ['kundenummer', 'kundenr', 'kunde nr'],
    fi: ['asiakasnumero', 'asiakasnro', 'asiakas nro'],
    de: ['kundennummer', 'kunden nr', 'kundennr', 'kunde nr'],
    fr: ['numéro client', 'n° client', 'code client', 'réf client'],
    nl: ['klantnummer', 'klant nr', 'debiteurnummer', 'klantnr'],
  },
  currency: {
    en: ['currency'],
    no: ['valuta'],
    sv: ['valuta'],
    da: ['valuta'],
    fi: ['valuutta'],
    de: ['währung'],
    fr: ['devise', 'monnaie'],
    nl: ['valuta', 'munteenheid'],
  },
  orgNumber: {
    en: ['ein', 'employer id', 'tax id number', 'org no', 'organisation number', 'organization number', 'company number', 'company no', 'company reg no', 'company registration no', 'registration number', 'reg no', 'business id', 'crn'],
    no: ['org nr', 'orgnr', 'org nummer', 'organisasjonsnummer', 'organisasjonsnr', 'foretaksregisteret', 'org'],
    sv: ['org nr', 'orgnr', 'organisationsnummer', 'organisationsnr', 'org'],
    da: ['cvr nr', 'cvr', 'cvr nummer', 'se nr'],
    fi: ['y tunnus', 'ytunnus', 'y tunn', 'yritystunnus'],
    de: ['handelsregister', 'hrb', 'hra', 'registernummer', 'amtsgericht', 'steuernummer', 'st nr'],
    fr: ['siret', 'siren', 'rcs', 'n° siret', 'n° siren'],
    nl: ['kvk', 'kvk nummer', 'kvk nr', 'kamer van koophandel', 'kvk no'],
  },
  vatId: {
    en: ['vat no', 'vat number', 'vat reg no', 'vat registration no', 'vat registration number', 'vat id', 'vat', 'tax id'],
    no: ['mva nr', 'mva nummer', 'foretaksregisteret mva'],
    sv: ['momsreg nr', 'momsregistreringsnummer', 'momsnr', 'vat nr', 'momsreg'],
    da: ['momsnr', 'moms nr', 'momsregistreringsnummer'],
    fi: ['alv numero', 'alv nro', 'alv rek', 'alv tunniste'],
    de: ['ust idnr', 'ust id nr', 'ust id', 'ustid', 'ust idnr', 'umsatzsteuer id', 'umsatzsteuer identifikationsnummer', 'uid', 'uid nr', 'mwst nr'],
    fr: ['n° tva', 'tva intracommunautaire', 'n° tva intracommunautaire', 'numéro de tva', 'tva intracom', 'n° de tva'],
    nl: ['btw nummer', 'btw nr', 'btw id', 'btw identificatienummer', 'btw'],
  },
  supplier: {
    en: ['supplier', 'seller', 'vendor', 'from', 'issued by', 'sold by'],
    no: ['leverandør', 'selger'],
    sv: ['leverantör', 'säljare'],
    da: ['leverandør', 'sælger'],
    fi: ['myyjä', 'toimittaja', 'laskuttaja'],
    de: ['lieferant', 'verkäufer', 'rechnungssteller', 'absender'],
    fr: ['fournisseur', 'vendeur', 'émetteur'],
    nl: ['leverancier', 'verkoper'],
  },
  buyer: {
    en: ['bill to', 'billed to', 'invoice to', 'invoiced to', 'sold to', 'customer', 'buyer', 'to', 'client', 'recipient'],
    no: ['faktureres til', 'fakturamottaker', 'kunde', 'kjøper', 'mottaker', 'til'],
    sv: ['faktureras till', 'fakturamottagare', 'kund', 'köpare', 'mottagare', 'till'],
    da: ['faktureres til', 'fakturamodtager', 'kunde', 'køber', 'modtager', 'til'],
    fi: ['laskutetaan', 'laskun saaja', 'asiakas', 'ostaja', 'vastaanottaja'],
    de: ['rechnungsempfänger', 'rechnungsadresse', 'kunde', 'käufer', 'empfänger', 'an'],
    fr: ['facturé à', 'adresse de facturation', 'client', 'acheteur', 'destinataire'],
    nl: ['factuuradres', 'gefactureerd aan', 'klant', 'koper', 'afnemer', 'aan'],
  },
  paymentTerms: {
    en: ['payment terms', 'terms'],
    no: ['betalingsbetingelser', 'betingelser'],
    sv: ['betalningsvillkor', 'villkor'],
    da: ['betalingsbetingelser', 'betingelser'],
    fi: ['maksuehdot', 'maksuehto'],
    de: ['zahlungsbedingungen', 'zahlungsziel'],
    fr: ['conditions de paiement', 'conditions de règlement'],
    nl: ['betalingsvoorwaarden', 'betalingstermijn'],
  },
};

export const TOTAL_LABELS: Dictionary<TotalField> = {
  net: {
    en: ['subtotal', 'sub total', 'net total', 'line total', 'lines total', 'sum of lines', 'total net', 'net amount', 'total excl vat', 'total excluding vat', 'total excl tax', 'total ex vat', 'total before tax', 'total before vat', 'amount excl vat', 'total excl', 'net'],
    no: ['sum eks mva', 'sum ekskl mva', 'totalt eks mva', 'totalt ekskl mva', 'beløp eks mva', 'beløp ekskl mva', 'sum eksklusiv mva', 'nettobeløp', 'netto', 'sum eks', 'delsum'],
    sv: ['summa exkl moms', 'belopp exkl moms', 'totalt exkl moms', 'summa exklusive moms', 'nettobelopp', 'netto', 'delsumma', 'summa exkl'],
    da: ['subtotal', 'i alt ekskl moms', 'beløb ekskl moms', 'total ekskl moms', 'sum ekskl moms', 'nettobeløb', 'netto'],
    fi: ['veroton yhteensä', 'yhteensä ilman alv', 'veroton summa', 'veroton hinta', 'veroton', 'välisumma', 'netto'],
    de: ['nettobetrag', 'summe netto', 'netto summe', 'gesamt netto', 'nettosumme', 'rechnungsbetrag netto', 'rechnungssumme ohne ust', 'rechnungssumme netto', 'summe ohne ust', 'betrag ohne ust', 'gesamt ohne ust', 'summe ohne mwst', 'zwischensumme', 'positionssumme', 'warenwert', 'netto'],
    fr: ['total ht', 'montant ht', 'sous total', 'total hors taxes', 'montant hors taxes', 'total hors tva'],
    nl: ['subtotaal', 'totaal excl btw', 'totaal exclusief btw', 'bedrag excl btw', 'netto bedrag', 'netto', 'totaal excl'],
  },
  vat: {
    en: ['total vat', 'vat total', 'vat amount', 'total tax', 'total taxes', 'tax total', 'sales tax', 'vat', 'tax'],
    no: ['sum mva', 'totalt mva', 'mva totalt', 'merverdiavgift', 'mva beløp', 'mva'],
    sv: ['summa moms', 'totalt moms', 'moms totalt', 'momsbelopp', 'mervärdesskatt', 'moms'],
    da: ['moms i alt', 'momsbeløb', 'total moms', 'moms'],
    fi: ['alv yhteensä', 'arvonlisävero yhteensä', 'arvonlisävero', 'alv'],
    de: ['umsatzsteuer gesamt', 'steuerbetrag', 'ust betrag', 'mwst betrag', 'summe mwst', 'summe ust', 'mwst gesamt', 'ust gesamt', 'umsatzsteuer', 'mehrwertsteuer', 'zzgl ust', 'zzgl mwst', 'zzgl', 'mwst', 'ust'],
    fr: ['total tva', 'total taxes', 'montant tva', 'montant de la tva', 'tva'],
    nl: ['totaal btw', 'btw bedrag', 'btw totaal', 'btw'],
  },
  gross: {
    en: ['total incl vat', 'total including vat', 'total inc vat', 'total incl tax', 'total including tax', 'invoice total', 'grand total', 'total amount', 'gross total', 'total'],
    no: ['totalt inkl mva', 'sum inkl mva', 'beløp inkl mva', 'totalbeløp', 'total inkl mva', 'sum inklusiv mva', 'totalt', 'total', 'sum'],
    sv: ['summa inkl moms', 'totalt inkl moms', 'belopp inkl moms', 'totalbelopp', 'summa att betala', 'totalt', 'summa', 'total'],
    da: ['i alt inkl moms', 'total inkl moms', 'beløb inkl moms', 'totalbeløb', 'i alt', 'total'],
    fi: ['verollinen yhteensä', 'yhteensä sis alv', 'yhteensä', 'loppusumma', 'verollinen summa'],
    de: ['gesamtbetrag', 'bruttobetrag', 'bruttosumme', 'rechnungssumme brutto', 'summe mit ust', 'summe brutto', 'gesamt brutto', 'rechnungsbetrag', 'gesamtsumme', 'endbetrag', 'rechnungssumme', 'brutto', 'gesamt', 'summe'],
    fr: ['total ttc', 'montant ttc', 'total toutes taxes comprises', 'montant total', 'total'],
    nl: ['totaal incl btw', 'totaal inclusief btw', 'totaalbedrag', 'factuurbedrag', 'totaal'],
  },
  due: {
    en: ['amount due', 'balance due', 'total due', 'amount payable', 'total payable', 'amount to pay', 'to pay', 'please pay', 'payable'],
    no: ['å betale', 'beløp å betale', 'å betale totalt', 'til betaling'],
    sv: ['att betala', 'belopp att betala', 'summa att betala'],
    da: ['at betale', 'beløb at betale', 'til betaling'],
    fi: ['maksettava yhteensä', 'maksettava', 'maksettavaa'],
    de: ['zahlbetrag', 'zu zahlen', 'zu zahlender betrag', 'offener betrag', 'zahlbar'],
    fr: ['net à payer', 'montant à payer', 'montant dû', 'reste à payer', 'à payer'],
    nl: ['te betalen', 'openstaand bedrag', 'te voldoen'],
  },
  vatBase: {
    en: ['taxable amount', 'vat basis', 'vat base', 'basis', 'net value'],
    no: ['mva grunnlag', 'mvagrunnlag', 'grunnlag', 'avgiftsgrunnlag'],
    sv: ['momsunderlag', 'moms underlag', 'underlag', 'momspliktigt'],
    da: ['momsgrundlag', 'moms grundlag', 'grundlag', 'momspligtigt beløb'],
    fi: ['alv peruste', 'veron peruste', 'peruste', 'veroperuste'],
    de: ['bemessungsgrundlage', 'steuerbasis', 'grundlage'],
    fr: ['base ht', 'base tva', 'base'],
    nl: ['btw grondslag', 'grondslag', 'btw basis'],
  },
  carryForward: {
    en: ['carried forward', 'carry forward', 'brought forward', 'balance forward', 'page total', 'subtotal page', 'continued'],
    no: ['overført', 'overføres', 'transport', 'sum side', 'mellomsum'],
    sv: ['transport', 'överföring', 'summa sida', 'överfört', 'att överföra', 'mellansumma'],
    da: ['overført', 'overføres', 'transport', 'sum side', 'mellemsum'],
    fi: ['siirto', 'siirretään', 'siirtyy', 'sivun summa', 'välisumma sivu'],
    de: ['übertrag', 'zwischensumme seite', 'seitenübertrag', 'vortrag', 'seitensumme'],
    fr: ['report', 'à reporter', 'reporté', 'total page', 'sous total page'],
    nl: ['transport', 'over te brengen', 'overgebracht', 'subtotaal pagina', 'paginatotaal'],
  },
  prepaid: {
    en: ['paid', 'prepaid', 'amount paid', 'less paid'],
    no: ['betalt', 'forskudd'],
    sv: ['betalt', 'förskott'],
    da: ['betalt', 'forudbetalt'],
    fi: ['maksettu', 'ennakko'],
    de: ['bezahlt', 'anzahlung', 'anzahlungen', 'erhaltene anzahlungen', 'erhaltene anzahlung', 'abzüglich anzahlung', 'bereits bezahlt'],
    fr: ['acompte', 'déjà payé', 'payé'],
    nl: ['betaald', 'vooruitbetaald', 'aanbetaling'],
  },
  rounding: {
    en: ['rounding', 'round off', 'rounded'],
    no: ['øreavrunding', 'avrunding'],
    sv: ['öresavrundning', 'avrundning'],
    da: ['afrunding', 'øreafrunding'],
    fi: ['pyöristys'],
    de: ['rundung', 'rundungsdifferenz'],
    fr: ['arrondi'],
    nl: ['afronding'],
  },
};

export const COLUMN_LABELS: Dictionary<ColumnRole> = {
  position: {
    en: ['pos', 'line', 'no', '#', 'item #', 'ln'],
    no: ['pos', 'linje', 'nr'],
    sv: ['pos', 'rad', 'nr'],
    da: ['pos', 'linje', 'nr'],
    fi: ['rivi', 'nro', 'pos', 'n:o'],
    de: ['pos', 'position', 'nr'],
    fr: ['ligne', 'n°', 'pos'],
    nl: ['regel', 'pos', 'nr'],
  },
  itemNumber: {
    en: ['item no', 'item number', 'item code', 'item', 'article no', 'art no', 'product code', 'product no', 'part no', 'part number', 'sku', 'code', 'ref'],
    no: ['varenr', 'varenummer', 'artikkelnr', 'artikkelnummer', 'art nr', 'produktnr', 'vare nr', 'kode'],
    sv: ['artikelnr', 'artikelnummer', 'art nr', 'artnr', 'produktnr', 'kod'],
    da: ['varenr', 'varenummer', 'vare nr', 'artikelnr', 'artikelnummer', 'produktnr', 'kode'],
    fi: ['tuotenumero', 'tuotenro', 'tuotekoodi', 'nimikenumero', 'koodi', 'tuote nro'],
    de: ['artikelnummer', 'artikelnr', 'art nr', 'artnr', 'artikel nr', 'materialnummer', 'produktnummer', 'bestellnr'],
    fr: ['référence', 'réf', 'ref', 'code article', 'code produit', 'code'],
    nl: ['artikelnummer', 'artikelnr', 'art nr', 'productcode', 'code'],
  },
  description: {
    en: ['description', 'item description', 'product description', 'product', 'service', 'services', 'details', 'particulars', 'article', 'text'],
    no: ['beskrivelse', 'varebeskrivelse', 'tekst', 'vare', 'produkt', 'spesifikasjon', 'varetekst', 'artikkel', 'tjeneste'],
    sv: ['beskrivning', 'benämning', 'specifikation', 'artikel', 'produkt', 'text', 'tjänst'],
    da: ['beskrivelse', 'varebeskrivelse', 'tekst', 'vare', 'produkt', 'specifikation', 'ydelse'],
    fi: ['kuvaus', 'nimike', 'tuote', 'selite', 'tuotenimi', 'palvelu'],
    de: ['beschreibung', 'bezeichnung', 'artikelbezeichnung', 'leistung', 'artikel', 'produkt', 'text', 'leistungsbeschreibung'],
    fr: ['désignation', 'description', 'libellé', 'produit', 'article', 'prestation'],
    nl: ['omschrijving', 'beschrijving', 'product', 'artikel', 'dienst', 'specificatie'],
  },
  quantity: {
    en: ['quantity', 'qty', 'quant', 'units', 'hours', 'hrs', 'count'],
    no: ['antall', 'ant', 'mengde', 'timer'],
    sv: ['antal', 'ant', 'mängd', 'kvantitet', 'timmar'],
    da: ['antal', 'ant', 'mængde', 'timer'],
    fi: ['määrä', 'kpl määrä', 'lkm', 'kpl'],
    de: ['menge', 'anzahl', 'anz', 'stück', 'stk', 'std'],
    fr: ['quantité', 'qté', 'qte', 'quantite', 'nombre'],
    nl: ['aantal', 'hoeveelheid', 'aant'],
  },
  unit: {
    en: ['unit', 'units of measure', 'uom', 'u m'],
    no: ['enhet', 'enh'],
    sv: ['enhet', 'enh'],
    da: ['enhed', 'enh'],
    fi: ['yksikkö', 'yks'],
    de: ['einheit', 'eh', 'me', 'mengeneinheit'],
    fr: ['unité', 'u', 'unite'],
    nl: ['eenheid', 'eenh'],
  },
  unitPrice: {
    en: ['unit price', 'price per unit', 'price each', 'price', 'rate', 'unit cost', 'each', 'net price'],
    no: ['enhetspris', 'à pris', 'a pris', 'á pris', 'pris pr enhet', 'stk pris', 'pris', 'timepris'],
    sv: ['à pris', 'a pris', 'á pris', 'styckpris', 'enhetspris', 'pris per enhet', 'pris', 'timpris'],
    da: ['enhedspris', 'stk pris', 'à pris', 'a pris', 'pris pr enhed', 'pris', 'timepris'],
    fi: ['yksikköhinta', 'à hinta', 'a hinta', 'á hinta', 'hinta', 'kpl hinta'],
    de: ['einzelpreis', 'e preis', 'stückpreis', 'preis je einheit', 'preis', 'ep', 'netto einzelpreis'],
    fr: ['prix unitaire', 'prix unitaire ht', 'pu ht', 'p u', 'pu', 'prix unit', 'prix'],
    nl: ['stukprijs', 'prijs per stuk', 'eenheidsprijs', 'prijs per eenheid', 'prijs', 'tarief'],
  },
  discount: {
    en: ['discount', 'disc', 'discount %', 'disc %'],
    no: ['rabatt', 'rab'],
    sv: ['rabatt', 'rab'],
    da: ['rabat'],
    fi: ['alennus', 'ale', 'ale %'],
    de: ['rabatt', 'nachlass', 'rab'],
    fr: ['remise', 'rabais', 'rem'],
    nl: ['korting'],
  },
  amount: {
    en: ['amount', 'line total', 'line amount', 'net amount', 'total', 'sum', 'net', 'value', 'amount excl vat', 'total excl vat', 'extension'],
    no: ['beløp', 'sum', 'totalt', 'total', 'netto', 'beløp eks mva', 'linjesum'],
    sv: ['belopp', 'summa', 'totalt', 'total', 'netto', 'radsumma'],
    da: ['beløb', 'i alt', 'total', 'sum', 'netto', 'linjetotal'],
    fi: ['yhteensä', 'summa', 'veroton', 'hinta yht', 'rivisumma', 'netto', 'yht'],
    de: ['gesamtpreis', 'gesamtbetrag', 'betrag', 'gesamt', 'summe', 'netto', 'gesamt netto', 'nettobetrag', 'positionswert', 'positionsbetrag', 'zeilenbetrag'],
    fr: ['montant', 'total', 'montant ht', 'total ht', 'prix total'],
    nl: ['bedrag', 'totaal', 'subtotaal', 'regeltotaal', 'netto'],
  },
  vatRate: {
    en: ['vat %', 'vat rate', 'vat', 'tax %', 'tax rate', 'tax'],
    no: ['mva %', 'mva sats', 'mva'],
    sv: ['moms %', 'momssats', 'moms'],
    da: ['moms %', 'momssats', 'moms'],
    fi: ['alv %', 'alv', 'alv kanta'],
    de: ['mwst %', 'ust %', 'mwst', 'ust', 'steuersatz', 'mwst satz'],
    fr: ['tva %', 'taux tva', 'tva', 'taux'],
    nl: ['btw %', 'btw tarief', 'btw'],
  },
  vatAmount: {
    en: ['vat amount'],
    no: ['mva beløp'],
    sv: ['momsbelopp'],
    da: ['momsbeløb'],
    fi: ['alv määrä', 'alv euro'],
    de: ['mwst betrag', 'ust betrag', 'steuerbetrag'],
    fr: ['montant tva'],
    nl: ['btw bedrag'],
  },
  grossAmount: {
    en: ['amount incl vat', 'total incl vat', 'gross'],
    no: ['beløp inkl mva', 'inkl mva'],
    sv: ['belopp inkl moms', 'inkl moms'],
    da: ['beløb inkl moms', 'inkl moms'],
    fi: ['verollinen', 'yhteensä sis alv'],
    de: ['brutto', 'gesamt brutto', 'bruttobetrag'],
    fr: ['montant ttc', 'total ttc'],
    nl: ['bedrag incl btw', 'incl btw'],
  },
};

/** Titles of documents that are invoices or credit notes, and of documents that are not. */
export const TITLES = {
  invoice: ['invoice', 'tax invoice', 'faktura', 'fakturaen', 'lasku', 'rechnung', 'facture', 'factuur', 'nota'],
  creditNote: ['credit note', 'credit memo', 'credit invoice', 'kreditnota', 'kreditfaktura', 'hyvityslasku', 'gutschrift', 'rechnungskorrektur', 'stornorechnung', 'avoir', 'facture d avoir', 'creditnota', 'creditfactuur'],
  notInvoice: [
    'purchase order', 'order confirmation', 'quotation', 'quote', 'offer', 'delivery note', 'packing slip', 'proforma', 'pro forma', 'reminder', 'statement of account', 'manual', 'user guide',
    'innkjøpsordre', 'ordrebekreftelse', 'tilbud', 'pakkseddel', 'følgeseddel', 'purring',
    'beställning', 'orderbekräftelse', 'offert', 'följesedel', 'påminnelse',
    'ordrebekræftelse', 'følgeseddel', 'rykker',
    'tilaus', 'tilausvahvistus', 'tarjous', 'lähete', 'maksumuistutus',
    'bestellung', 'auftragsbestätigung', 'angebot', 'lieferschein', 'mahnung', 'handbuch',
    'bon de commande', 'confirmation de commande', 'devis', 'bon de livraison', 'relance',
    'inkooporder', 'orderbevestiging', 'offerte', 'pakbon', 'herinnering', 'handleiding',
  ],
} as const;

/** Legal forms: a text ending in one of them is a company name. */
export const LEGAL_FORMS = [
  'as', 'asa', 'ab', 'ab publ', 'a/s', 'aps', 'i/s', 'oy', 'oyj', 'ay', 'ky', 'gmbh', 'ag', 'kg', 'ohg', 'ug', 'e k', 'gmbh & co kg', 'ltd', 'limited', 'llc', 'inc', 'corp', 'plc', 'llp', 'co',
  'sa', 'sas', 'sarl', 'sasu', 'eurl', 'snc', 'bv', 'nv', 'vof', 'b v', 'n v', 'ab oy', 'da', 'ans', 'ks', 'enk', 'hb', 'kb', 'ek för', 'tmi', 'srl', 'spa', 's a', 'ltda',
];

/** `text` without `char` at its start and end (a loop: an end-anchored pattern backtracks). */
function trimChars(text: string, char: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text[start] === char) start += 1;
  while (end > start && text[end - 1] === char) end -= 1;
  return text.slice(start, end);
}

/** Lower case, punctuation as spaces, one space between words. */
export function normalizeLabel(text: string): string {
  return text
    .toLowerCase()
    .replace(/[.:()[\]*/\\'’"«»_=|;,]/gu, ' ')
    .replace(/(?<=\p{L})-(?=\p{L})/gu, ' ')
    .split(/\s+/u)
    // Hyphens at a word's edge ("Art.-Nr." → "art -nr") join nothing.
    .map((word) => trimChars(word, '-'))
    .filter((word) => word !== '')
    .join(' ');
}

export interface LabelTerm<K extends string> {
  key: K;
  language: Language;
  words: string[];
}

/** Every term of a dictionary as word lists, longest first, so "total excl vat" wins over "total". */
export function termsOf<K extends string>(dictionary: Dictionary<K>): LabelTerm<K>[] {
  const terms: LabelTerm<K>[] = [];
  for (const key of Object.keys(dictionary) as K[]) {
    for (const language of LANGUAGES) {
      for (const term of dictionary[key][language] ?? []) terms.push({ key, language, words: normalizeLabel(term).split(' ') });
    }
  }
  return terms.sort((a, b) => b.words.length - a.words.length || b.words.join(' ').length - a.words.join(' ').length);
}

/** Keeps "n°" and "#" as words of their own: they are labels. */
export function labelWords(text: string): string[] {
  const normalized = normalizeLabel(text.replace(/#/gu, ' # '));
  return normalized === '' ? [] : normalized.split(' ');
}

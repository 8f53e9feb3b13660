import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import { z } from 'zod';
import { ApiError, errors } from '../../http/errors.js';
import type { ReceivedFile } from '../../http/multipart.js';
import { labelsOf } from '../labels.js';
import { mayCall, type OperationCaller, type OperationInput, type OperationResponse } from '../operations.js';
import { defineAction, defineDownload, definePage, type ActionResult, type WebInput, type WebRoute } from '../page.js';
import { firstText } from '../pickers.js';
import { actOrShowRefusal, type Refusal } from '../refusal.js';
import type { Texts } from '../texts/index.js';
import { agreementIdParams, agreementPage, type PriceForm } from './agreements.js';

// Setting an agreement up in the application, through the API's own operations (issue 28): its
// terms, parties, renewal and tags (createAgreement / updateAgreement), activating and ending it,
// contract documents (registerDocumentUpload, the bytes to storage, importAgreementDocuments), a
// price list imported after a preview of its rows (previewPriceImport, then createPriceImports,
// its progress polled), and price items edited in place (create/update/deletePriceItems). A refused
// form is shown again with every value it was sent and the API's error at its field.

type SetupTexts = Texts['agreementSetup'];
type Agreement = OperationResponse<'getAgreement'>;
type AgreementBody = NonNullable<OperationInput<'updateAgreement'>['body']>;

// Repeated form fields arrive as arrays, a single one as a string.
const many = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]).filter(Boolean));
const text = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((value) => (Array.isArray(value) ? (value[0] ?? '') : (value ?? '')).trim());

const agreementForm = z.object({
  _csrf: z.unknown().optional(),
  title: text,
  effective_date: text,
  expiration_date: text,
  instructions: text,
  supplier_ids: many,
  supplier: text,
  recipient_ids: many,
  recipient: text,
  tag_ids: many,
  new_tag: text,
  auto_renews: text,
  period_months: text,
  notice_days: text,
  currency_codes: text,
  buyer_references: text,
});
export type AgreementFormValues = z.output<typeof agreementForm>;

function valuesOf(agreement: Agreement | null): AgreementFormValues {
  return {
    _csrf: undefined,
    title: agreement?.title ?? '',
    effective_date: agreement?.effective_date ?? '',
    expiration_date: agreement?.expiration_date ?? '',
    instructions: agreement?.instructions ?? '',
    supplier_ids: agreement?.supplier_ids ?? [],
    supplier: '',
    recipient_ids: agreement?.recipient_ids ?? [],
    recipient: '',
    tag_ids: agreement?.tag_ids ?? [],
    new_tag: '',
    auto_renews: agreement?.renewal.auto_renews ? 'on' : '',
    period_months: agreement?.renewal.period_months?.toString() ?? '',
    notice_days: agreement?.renewal.notice_days?.toString() ?? '',
    currency_codes: agreement?.applicability?.currency_codes?.join(', ') ?? '',
    buyer_references: agreement?.applicability?.buyer_references?.join(', ') ?? '',
  };
}

const list = (value: string) =>
  value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
// A number field as the API takes it: empty is null; anything else is the API's to judge.
const numberOrNull = (value: string) => (value === '' ? null : Number(value));

// A name typed in a party picker: its exact match (any case) in the API's own search, else the one
// party whose name contains it; else the field is refused with what was found.
async function pickParty(
  { call, t }: { call: OperationCaller; t: SetupTexts },
  kind: 'supplier' | 'recipient',
  name: string,
): Promise<string | null> {
  if (name === '') return null;
  const query = { search: name, limit: '20' };
  const found = kind === 'supplier' ? await call('listSuppliers', { query }) : await call('listRecipients', { query });
  const exact = found.data.filter((party) => party.name.toLowerCase() === name.toLowerCase());
  const chosen = exact.length > 0 ? exact : found.data;
  if (chosen.length === 1) return chosen[0]!.id;
  const message =
    chosen.length === 0
      ? t.partyNone(kind, name)
      : t.partyMany(kind, found.next_cursor ? t.moreThan20 : String(chosen.length), name);
  throw errors.validation(t.partyNotChosen(kind, name), [{ field: kind, message }]);
}

// A new tag by name, or the existing one of that name (the API answers 409 with its id).
async function tagNamed(call: OperationCaller, name: string): Promise<string | null> {
  if (name === '') return null;
  try {
    return (await call('createAgreementTag', { body: { name } })).id;
  } catch (caught) {
    const existing = caught instanceof ApiError ? caught.extra.body?.existing_tag_id : undefined;
    if (typeof existing === 'string') return existing;
    if (caught instanceof ApiError && caught.status === 400) {
      throw new ApiError(400, caught.code, caught.message, {
        details: [{ field: 'new_tag', message: caught.message }],
      });
    }
    throw caught;
  }
}

// The form's values as the API's body (the picked names resolved to ids, added to the kept ones).
async function bodyOf(call: OperationCaller, t: SetupTexts, values: AgreementFormValues): Promise<AgreementBody> {
  const [supplierId, recipientId, tagId] = [
    await pickParty({ call, t }, 'supplier', values.supplier),
    await pickParty({ call, t }, 'recipient', values.recipient),
    await tagNamed(call, values.new_tag),
  ];
  const unique = (ids: string[], added: string | null) => [...new Set(added ? [...ids, added] : ids)];
  const currencies = list(values.currency_codes).map((code) => code.toUpperCase());
  const buyers = list(values.buyer_references);
  return {
    title: values.title || null,
    effective_date: values.effective_date || null,
    expiration_date: values.expiration_date || null,
    instructions: values.instructions || null,
    supplier_ids: unique(values.supplier_ids, supplierId),
    recipient_ids: unique(values.recipient_ids, recipientId),
    tag_ids: unique(values.tag_ids, tagId),
    renewal: {
      auto_renews: values.auto_renews !== '',
      period_months: numberOrNull(values.period_months),
      notice_days: numberOrNull(values.notice_days),
    },
    applicability:
      currencies.length || buyers.length
        ? {
            ...(currencies.length ? { currency_codes: currencies } : {}),
            ...(buyers.length ? { buyer_references: buyers } : {}),
          }
        : null,
  };
}

type FormInput = Pick<WebInput<unknown, unknown>, 'call' | 'deps' | 'credential' | 't'>;

// The create / edit form's data: the values (as read, or as sent), and the names beside the ids.
async function formPage(
  { call, deps, credential, t: texts }: FormInput,
  agreement: Agreement | null,
  values: AgreementFormValues,
  refusal: Refusal | null,
) {
  const tags = await call('listAgreementTags', { query: { limit: '100', sort: 'name', direction: 'asc' } });
  const labels = await labelsOf(deps, credential.organizationId, {
    suppliers: values.supplier_ids,
    recipients: values.recipient_ids,
  });
  const t = texts.agreementSetup;
  return {
    title: agreement ? `${t.editAgreement}: ${agreement.title ?? texts.agreements.untitled}` : t.newAgreement,
    agreement,
    values,
    suppliers: values.supplier_ids.map((id) => ({ id, name: labels.suppliers.get(id) ?? t.unknownSupplier })),
    recipients: values.recipient_ids.map((id) => ({ id, name: labels.recipients.get(id) ?? t.unknownRecipient })),
    tags: tags.data,
    action: agreement ? `/app/agreements/${agreement.id}/edit` : '/app/agreements/new',
    cancel: agreement ? `/app/agreements/${agreement.id}` : '/app/agreements',
    refusal,
  };
}

function refusalOf(caught: unknown): Refusal {
  if (!(caught instanceof ApiError) || caught.status >= 500) throw caught;
  const details = Array.isArray(caught.extra.details) ? (caught.extra.details as Refusal['details']) : [];
  return { code: caught.code, message: caught.message, details };
}

async function saveAgreement(
  input: FormInput,
  agreement: Agreement | null,
  values: AgreementFormValues,
): Promise<ActionResult> {
  const t = input.t.agreementSetup;
  try {
    const body = await bodyOf(input.call, t, values);
    const saved = agreement
      ? await input.call('updateAgreement', { params: { id: agreement.id }, body })
      : await input.call('createAgreement', { body });
    return { redirect: `/app/agreements/${saved.id}`, notice: agreement ? t.saved : t.created };
  } catch (caught) {
    const refusal = refusalOf(caught);
    const data = await formPage(input, agreement, values, refusal);
    return { view: 'agreement-form', title: data.title, nav: 'agreements', status: 400, data };
  }
}

// ---- Price items, edited in place on the agreement page ----

const priceFormBody = z.object({
  _csrf: z.unknown().optional(),
  description: text,
  seller_item_id: text,
  unit: text,
  currency_code: text,
  price_type: text,
  amount: text,
  fraction: text,
  basis: text,
  valid_from: text,
  valid_until: text,
});
type PriceValues = z.output<typeof priceFormBody>;

const orNull = (value: string) => value || null;
function priceEntry(values: PriceValues) {
  const price =
    values.price_type === 'rate'
      ? { type: 'rate' as const, fraction: values.fraction, basis: values.basis }
      : { type: 'amount' as const, amount: values.amount };
  return {
    description: values.description,
    seller_item_id: orNull(values.seller_item_id),
    unit: orNull(values.unit),
    currency_code: values.currency_code ? values.currency_code.toUpperCase() : null,
    price,
    valid_from: orNull(values.valid_from),
    valid_until: orNull(values.valid_until),
  };
}

function onAgreement(
  input: WebInput<{ id: string }, never>,
  priceForm: PriceForm | null,
  act: (t: SetupTexts) => Promise<string>,
  anchor = '',
) {
  return actOrShowRefusal(
    {
      view: 'agreement',
      nav: 'agreements',
      load: async () => ({ ...(await agreementPage(input)), priceForm }),
    },
    async () => {
      const notice = await act(input.t.agreementSetup);
      return { redirect: `/app/agreements/${input.params.id}${anchor}`, notice };
    },
  );
}

// ---- Files: contract documents and price lists ----

const FILE_LIMIT_BYTES = 20 * 1024 * 1024;
const fileLimits = (config: { UPLOAD_TEMP_DIR: string; UPLOAD_MAX_CONCURRENT: number }) => ({
  tempRoot: config.UPLOAD_TEMP_DIR,
  maxFileBytes: FILE_LIMIT_BYTES,
  maxFiles: 10,
  maxTotalBytes: 10 * FILE_LIMIT_BYTES,
  maxConcurrent: config.UPLOAD_MAX_CONCURRENT,
});

const MIME_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  csv: 'text/csv',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  txt: 'text/plain',
};
function mimeTypeOf(file: ReceivedFile): string {
  const sent = (file.mimeType ?? '').toLowerCase();
  if (sent && sent !== 'application/octet-stream') return sent;
  const extension = (file.fileName ?? '').toLowerCase().split('.').pop() ?? '';
  return MIME_TYPES[extension] ?? 'application/octet-stream';
}

// The spec's document registration and the byte upload to its address, as any client does.
async function uploadFile(
  { call, t }: { call: OperationCaller; t: Texts },
  file: ReceivedFile,
  category: string,
  field: string,
): Promise<string> {
  const registration = await call('registerDocumentUpload', {
    body: { file_name: file.fileName || 'document', mime_type: mimeTypeOf(file), file_size: file.size, category },
  }).catch((caught: unknown) => {
    if (caught instanceof ApiError && caught.status === 400)
      throw new ApiError(400, caught.code, caught.message, { details: [{ field, message: caught.message }] });
    throw caught;
  });
  const stored = await fetch(registration.upload_url, {
    method: 'PUT',
    headers: registration.headers,
    body: await readFile(file.path),
  }).catch(() => null);
  if (!stored?.ok) throw errors.serviceUnavailable(t.agreementSetup.notStored);
  return registration.document_id;
}

// ---- Price import: upload, preview, confirm, progress ----

const importForm = z.object({
  _csrf: z.unknown().optional(),
  document_id: text,
  file_name: text,
  default_currency: text,
  mode: text,
  worksheets: text,
  instructions: text,
});
type ImportValues = z.output<typeof importForm>;
const MODES = ['add', 'replace_document', 'replace_all'] as const;

function importEntry(values: ImportValues) {
  const mode = (MODES as readonly string[]).includes(values.mode) ? (values.mode as (typeof MODES)[number]) : 'add';
  const worksheets = list(values.worksheets);
  return {
    document_id: values.document_id,
    default_currency: values.default_currency.toUpperCase(),
    mode,
    ...(values.instructions ? { instructions: values.instructions } : {}),
    ...(worksheets.length ? { worksheets } : {}),
  };
}

async function importPage(
  { call, params, t: texts }: { call: OperationCaller; params: { id: string }; t: Texts },
  values: ImportValues,
  preview: OperationResponse<'previewPriceImport'> | null,
  refusal: Refusal | null,
) {
  const agreement = await call('getAgreement', { params: { id: params.id } });
  const t = texts.agreementSetup;
  return {
    title: `${t.importPrices}: ${agreement.title ?? texts.agreements.untitled}`,
    agreement,
    values,
    preview,
    refusal,
    modes: [
      { value: 'add', label: t.modeAdd },
      { value: 'replace_document', label: t.modeReplaceDocument },
      { value: 'replace_all', label: t.modeReplaceAll },
    ],
  };
}

const importParams = z.object({ id: z.string().uuid(), import_id: z.string().uuid() });

type ImportInput = Pick<WebInput<{ id: string; import_id: string }, unknown>, 'call' | 'params' | 'credential' | 't'>;

async function importProgress({ call, params, credential, t }: ImportInput) {
  const [agreement, priceImport] = await Promise.all([
    call('getAgreement', { params: { id: params.id } }),
    call('getPriceImport', { params: { id: params.id, import_id: params.import_id } }),
  ]);
  const [document, rowsToReview] = await Promise.all([
    call('getDocument', { params: { id: priceImport.document_id } }),
    priceImport.needs_review ? unsettledRows(call, params) : Promise.resolve(null),
  ]);
  return {
    title: `${t.agreementSetup.progress}: ${document.file_name}`,
    agreement,
    priceImport,
    fileName: document.file_name,
    running: priceImport.status === 'queued' || priceImport.status === 'running',
    rowsToReview,
    canConfirmReview: priceImport.needs_review && mayCall(credential, 'confirmPriceImportReview'),
  };
}

// The rows a person has to look at in an import that needs review: rejected ones, and those not
// added because the list was not read completely. Read from the import's own row report (the
// API's download), the first REVIEW_ROWS of them.
const REVIEW_ROWS = 100;
interface ReportRow {
  sheet: string;
  row: string;
  outcome: string;
  reason: string;
  cells: string;
}

async function unsettledRows(call: OperationCaller, params: { id: string; import_id: string }) {
  const csv: unknown = await call('downloadPriceImport', { params });
  const text = typeof csv === 'string' ? csv : Buffer.isBuffer(csv) ? csv.toString('utf8') : '';
  const rows = parse<ReportRow>(text, { columns: true, skip_empty_lines: true }).filter(
    (row) => row.outcome === 'rejected' || row.outcome === 'not_added',
  );
  return {
    total: rows.length,
    shown: rows.slice(0, REVIEW_ROWS).map((row) => ({ ...row, cells: cellTexts(row.cells) })),
  };
}

// The report keeps a row's cells as JSON (an array, or an object by column); shown as one line.
function cellTexts(cells: string): string {
  try {
    const value: unknown = JSON.parse(cells);
    const parts = Array.isArray(value) ? value : value && typeof value === 'object' ? Object.values(value) : [value];
    return parts
      .filter((part) => part !== null && part !== '')
      .map(String)
      .join(' · ');
  } catch {
    return cells;
  }
}

const noFile = (t: SetupTexts, field: string) =>
  errors.validation(t.chooseFile, [{ field, message: t.chooseFileField }]);

export const agreementSetupPages: WebRoute[] = [
  definePage({
    path: '/agreements/new',
    nav: 'agreements',
    level: 'write',
    title: (t) => t.agreementSetup.newAgreement,
    view: 'agreement-form',
    load: (input) => formPage(input, null, valuesOf(null), null),
  }),
  defineAction({
    path: '/agreements/new',
    level: 'write',
    body: agreementForm,
    handle: (input) => saveAgreement(input, null, input.body),
  }),
  definePage({
    path: '/agreements/:id/edit',
    nav: 'agreements',
    level: 'write',
    title: (t) => t.agreementSetup.editAgreement,
    view: 'agreement-form',
    params: agreementIdParams,
    load: async (input) => {
      const agreement = await input.call('getAgreement', { params: { id: input.params.id } });
      return formPage(input, agreement, valuesOf(agreement), null);
    },
  }),
  defineAction({
    path: '/agreements/:id/edit',
    level: 'write',
    params: agreementIdParams,
    body: agreementForm,
    handle: async (input) => {
      const agreement = await input.call('getAgreement', { params: { id: input.params.id } });
      return saveAgreement(input, agreement, input.body);
    },
  }),
  // Activate, archive, back to draft: the agreement's status (the API says what is missing).
  defineAction({
    path: '/agreements/:id/status',
    level: 'write',
    params: agreementIdParams,
    body: z.object({ _csrf: z.unknown().optional(), status: z.enum(['draft', 'active', 'archived']) }),
    handle: (input) =>
      onAgreement(input, null, async (t) => {
        await input.call('updateAgreement', { params: { id: input.params.id }, body: { status: input.body.status } });
        return { draft: t.drafted, active: t.activated, archived: t.archived }[input.body.status];
      }),
  }),
  // End on a date: the spec's renewal action {type: cancel, expiration_date}.
  defineAction({
    path: '/agreements/:id/end',
    level: 'write',
    params: agreementIdParams,
    body: z.object({ _csrf: z.unknown().optional(), end_date: text }),
    handle: (input) =>
      onAgreement(input, null, async (t) => {
        const updated = await input.call('updateAgreement', {
          params: { id: input.params.id },
          body: { renewal_action: { type: 'cancel', expiration_date: input.body.end_date } },
        });
        return t.ended(updated.expiration_date ?? input.body.end_date);
      }),
  }),
  // Extend by one renewal period: the spec's renewal action {type: extend}.
  defineAction({
    path: '/agreements/:id/extend',
    level: 'write',
    params: agreementIdParams,
    body: z.object({ _csrf: z.unknown().optional() }),
    handle: (input) =>
      onAgreement(input, null, async (t) => {
        const updated = await input.call('updateAgreement', {
          params: { id: input.params.id },
          body: { renewal_action: { type: 'extend' } },
        });
        return t.extended(updated.expiration_date ?? '');
      }),
  }),
  // Contract documents: each file registered and stored, then all attached in one run.
  defineAction({
    path: '/agreements/:id/documents',
    level: 'write',
    params: agreementIdParams,
    multipart: fileLimits,
    body: z.object({ _csrf: z.unknown().optional() }).passthrough(),
    handle: (input) =>
      onAgreement(
        input,
        null,
        async (t) => {
          const files = input.files.filter((file) => file.field === 'files');
          if (files.length === 0) throw noFile(t, 'files');
          const ids: string[] = [];
          for (const file of files) ids.push(await uploadFile(input, file, 'agreement', 'files'));
          await input.call('importAgreementDocuments', {
            params: { id: input.params.id },
            body: { entries: ids.map((document_id) => ({ document_id })) },
          });
          return t.documentsAdded;
        },
        '#documents-heading',
      ),
  }),
  // Price items: add, change, delete.
  defineAction({
    path: '/agreements/:id/prices',
    level: 'write',
    params: agreementIdParams,
    body: priceFormBody,
    handle: (input) =>
      onAgreement(
        input,
        { id: null, values: input.body },
        async (t) => {
          await input.call('createPriceItems', {
            params: { id: input.params.id },
            body: { entries: [priceEntry(input.body)] },
          });
          return t.priceAdded;
        },
        '#prices-heading',
      ),
  }),
  defineAction({
    path: '/agreements/:id/prices/:price_id',
    level: 'write',
    params: z.object({ id: z.string().uuid(), price_id: z.string().uuid() }),
    body: priceFormBody,
    handle: (input) =>
      onAgreement(
        input,
        { id: input.params.price_id, values: input.body },
        async (t) => {
          await input.call('updatePriceItems', {
            params: { id: input.params.id },
            body: { entries: [{ id: input.params.price_id, ...priceEntry(input.body) }] },
          });
          return t.priceSaved;
        },
        '#prices-heading',
      ),
  }),
  defineAction({
    path: '/agreements/:id/prices/:price_id/delete',
    level: 'write',
    params: z.object({ id: z.string().uuid(), price_id: z.string().uuid() }),
    body: z.object({ _csrf: z.unknown().optional() }),
    handle: (input) =>
      onAgreement(
        input,
        null,
        async (t) => {
          await input.call('deletePriceItems', {
            params: { id: input.params.id },
            body: { ids: [input.params.price_id] },
          });
          return t.priceDeleted;
        },
        '#prices-heading',
      ),
  }),
  // Import a price list: the form, its preview (the file stored, nothing imported), the start.
  definePage({
    path: '/agreements/:id/price-import',
    nav: 'agreements',
    level: 'write',
    title: (t) => t.agreementSetup.importPrices,
    view: 'agreement-import',
    params: agreementIdParams,
    load: (input) =>
      importPage(
        input,
        {
          _csrf: undefined,
          document_id: '',
          file_name: '',
          default_currency: '',
          mode: 'add',
          worksheets: '',
          instructions: '',
        },
        null,
        null,
      ),
  }),
  defineAction({
    path: '/agreements/:id/price-import/preview',
    level: 'write',
    params: agreementIdParams,
    multipart: fileLimits,
    body: importForm,
    handle: async (input) => {
      const values = { ...input.body };
      try {
        const file = input.files.find((received) => received.field === 'file' && received.size > 0);
        if (file) {
          values.document_id = await uploadFile(input, file, 'price_list', 'file');
          values.file_name = file.fileName || input.t.agreementSetup.priceListName;
        }
        if (!values.document_id) throw noFile(input.t.agreementSetup, 'file');
        const preview = await input.call('previewPriceImport', {
          params: { id: input.params.id },
          body: { entries: [importEntry(values)] },
        });
        const data = await importPage(input, values, preview, null);
        return { view: 'agreement-import', title: data.title, nav: 'agreements', data };
      } catch (caught) {
        const data = await importPage(input, values, null, refusalOf(caught));
        return { view: 'agreement-import', title: data.title, nav: 'agreements', status: 400, data };
      }
    },
  }),
  defineAction({
    path: '/agreements/:id/price-import/start',
    level: 'write',
    params: agreementIdParams,
    body: importForm,
    handle: async (input) => {
      try {
        const started = await input.call('createPriceImports', {
          params: { id: input.params.id },
          body: { entries: [importEntry(input.body)] },
        });
        return {
          redirect: `/app/agreements/${input.params.id}/price-imports/${started.data[0]!.id}`,
          notice: input.t.agreementSetup.started,
        };
      } catch (caught) {
        const data = await importPage(input, input.body, null, refusalOf(caught));
        return { view: 'agreement-import', title: data.title, nav: 'agreements', status: 400, data };
      }
    },
  }),
  definePage({
    path: '/agreements/:id/price-imports/:import_id',
    nav: 'agreements',
    title: (t) => t.agreementSetup.progress,
    view: 'agreement-import-status',
    params: importParams,
    load: (input) => importProgress(input),
  }),
  // The progress alone, polled by htmx while the import is queued or running.
  definePage({
    path: '/agreements/:id/price-imports/:import_id/progress',
    nav: null,
    title: (t) => t.agreementSetup.progress,
    view: 'agreement-import-progress',
    params: importParams,
    load: (input) => importProgress(input),
  }),
  // A person has looked at an import that needed review: it leaves the review queue.
  defineAction({
    path: '/agreements/:id/price-imports/:import_id/confirm-review',
    level: 'write',
    params: importParams,
    body: z.object({ _csrf: z.unknown().optional() }),
    handle: async ({ call, params, t }) => {
      await call('confirmPriceImportReview', { params });
      return { redirect: '/app/review', notice: t.agreementSetup.importReviewed };
    },
  }),
  defineDownload({
    path: '/agreements/:id/price-imports/:import_id/rows.csv',
    params: importParams,
    file: async ({ call, params }) => ({
      body: await call('downloadPriceImport', { params: { id: params.id, import_id: params.import_id } }),
      contentType: 'text/csv; charset=utf-8',
      fileName: `price-import-${params.import_id}.csv`,
    }),
  }),
  // Type-ahead for the recipient picker (the supplier's is /app/suggest/suppliers).
  definePage({
    path: '/suggest/recipients',
    nav: null,
    title: (t) => t.agreementSetup.recipients,
    view: 'suggestions',
    load: async ({ ctx, call }) => {
      const search = firstText(ctx.query.recipient);
      const page = await call('listRecipients', { query: { limit: '20', ...(search ? { search } : {}) } });
      return { options: [...new Set(page.data.map((party) => party.name).filter(Boolean))] };
    },
  }),
];

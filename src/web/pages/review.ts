import { z } from 'zod';
import { findDocuments } from '../../documents/service.js';
import { errors } from '../../http/errors.js';
import type { ListItem, OperationCaller } from '../operations.js';
import { defineAction, defineDownload, definePage, type WebInput, type WebRoute } from '../page.js';
import { pager, pageSizeOf } from '../query.js';
import { actOrShowRefusal } from '../refusal.js';
import { MAX_RENDERED_PDF_BYTES, renderedPage } from '../review-page-images.js';
import { invoicePage } from './invoices.js';
import { patchOf, reviewBody, reviewPanel, type ReviewForm } from './review-panel.js';

// The review queue (issue 28): invoices whose reading is uncertain (GET /v1/invoices?needs_review=true,
// oldest first) and price imports a person should look at; one invoice beside its original page
// with the boxes its values were read from and the correction form (pages/review-panel.ts), which
// saves with the API's PATCH /v1/invoices/{id}; a page of an original as an image; comments.

type PriceImport = ListItem<'listPriceImports'>;

const idParams = z.object({ id: z.string().uuid() });
const QUEUE_QUERY = { needs_review: 'true', sort: 'created_at', direction: 'asc' } as const;
// Recent price import runs looked at for imports needing review (the API lists imports per agreement).
const PRICE_IMPORT_RUNS = '20';

// The oldest invoice of the queue, or null when it is empty.
async function oldestInQueue(call: OperationCaller): Promise<string | null> {
  const page = await call('listInvoices', { query: { ...QUEUE_QUERY, limit: '1' } });
  return page.data[0]?.id ?? null;
}

// The invoice after this one in the queue (among its oldest 100; past them, the oldest), for "Skip".
async function nextInQueue(call: OperationCaller, current: string): Promise<string | null> {
  const page = await call('listInvoices', { query: { ...QUEUE_QUERY, limit: '100', fields: 'id' } });
  const at = page.data.findIndex((invoice) => invoice.id === current);
  const next = at === -1 ? page.data[0] : page.data[at + 1];
  return next?.id ?? null;
}

// Price imports that need a look, among the latest price import runs: the agreements of those
// runs, one read each (at most PRICE_IMPORT_RUNS), newest first.
async function priceImportsToReview(call: OperationCaller) {
  const runs = await call('listWorkflowRuns', {
    query: { types: 'price_import', statuses: 'completed,completed_with_errors,failed', limit: PRICE_IMPORT_RUNS },
  });
  const agreementIds = [
    ...new Set(runs.data.flatMap((run) => (run.owner?.type === 'agreement' ? [run.owner.id] : []))),
  ];
  const perAgreement = await Promise.all(
    agreementIds.map(async (id) => {
      const [imports, agreement] = await Promise.all([
        call('listPriceImports', { params: { id }, query: { needs_review: 'true', limit: '10' } }),
        call('getAgreement', { params: { id } }),
      ]);
      return imports.data.map((entry: PriceImport) => ({ ...entry, agreementId: id, agreementTitle: agreement.title }));
    }),
  );
  const runIds = new Set(runs.data.map((run) => run.id));
  return perAgreement
    .flat()
    .filter((entry) => runIds.has(entry.workflow_run_id))
    .sort((a, b) => a.created_at.localeCompare(b.created_at));
}

async function reviewItemPage(input: WebInput<{ id: string }, unknown>, sent: ReviewForm | null) {
  const invoice = await input.call('getInvoice', { params: input.params });
  const [panel, next] = await Promise.all([reviewPanel(input, invoice, sent), nextInQueue(input.call, invoice.id)]);
  return {
    title: input.t.review.itemPageTitle(invoice.invoice_number),
    invoice,
    ...panel,
    nextUrl: next ? `/app/review/invoices/${next}` : null,
  };
}

export const reviewPages: WebRoute[] = [
  definePage({
    path: '/review',
    nav: 'review',
    title: (t) => t.review.title,
    view: 'review',
    load: async ({ ctx, call }) => {
      const pageSize = pageSizeOf(ctx.query);
      const cursor = typeof ctx.query.cursor === 'string' ? ctx.query.cursor : undefined;
      const [page, priceImports] = await Promise.all([
        call('listInvoices', {
          query: { ...QUEUE_QUERY, limit: String(pageSize), ...(cursor ? { cursor } : {}) },
        }),
        priceImportsToReview(call),
      ]);
      return {
        invoices: page.data,
        priceImports,
        pager: pager('/app/review', {}, ctx.query, page.data.length, pageSize, page.next_cursor),
      };
    },
  }),
  // The oldest invoice of the queue (where "Save and go to the next" leads).
  definePage({
    path: '/review/next',
    nav: 'review',
    title: (t) => t.review.title,
    view: 'error',
    load: async ({ call }) => {
      const id = await oldestInQueue(call);
      return { redirect: id ? `/app/review/invoices/${id}` : '/app/review' };
    },
  }),
  definePage({
    path: '/review/invoices/:id',
    nav: 'review',
    title: (t) => t.review.itemTitle,
    view: 'review-item',
    params: idParams.catch({ id: '00000000-0000-0000-0000-000000000000' }),
    load: (input) => reviewItemPage(input, null),
  }),
  // The correction (or confirmation) of a reading: the API's PATCH of the invoice's data.
  defineAction({
    path: '/review/invoices/:id',
    level: 'write',
    params: idParams,
    body: reviewBody,
    handle: (input) => {
      const save = async (then: string) => {
        const invoice = await input.call('getInvoice', { params: input.params });
        const body = patchOf(invoice, input.body, input.t.review);
        const saved = await input.call('updateInvoice', { params: input.params, body });
        // Still in the queue: nothing was corrected, so the person confirms the reading as it is.
        if (saved.extraction.needs_review) await input.call('confirmInvoiceReading', { params: input.params });
        const t = input.t.review;
        return { redirect: then, notice: invoice.extraction.needs_review ? t.saved : t.savedReviewed };
      };
      // Refused: the page it came from again, with the values as sent and the errors at their fields.
      return input.body.from === 'invoice'
        ? actOrShowRefusal({ view: 'invoice', nav: 'invoices', load: () => invoicePage(input, input.body) }, () =>
            save(`/app/invoices/${input.params.id}`),
          )
        : actOrShowRefusal({ view: 'review-item', nav: 'review', load: () => reviewItemPage(input, input.body) }, () =>
            save('/app/review/next'),
          );
    },
  }),
  // A page of the original PDF as an image (see review-page-images.ts), after the same read as
  // the invoice page (tenancy: another organization's invoice is 404).
  defineDownload({
    path: '/invoices/:id/pages/:page',
    params: z.object({ id: z.string().uuid(), page: z.coerce.number().int().min(1).max(999) }),
    file: async ({ params, call, deps, credential }) => {
      const invoice = await call('getInvoice', { params: { id: params.id } });
      if (!invoice.primary_document_id) throw errors.notFound('original file');
      const [document] = await findDocuments(deps, credential.organizationId, [invoice.primary_document_id]);
      if (!document || document.mimeType !== 'application/pdf') throw errors.notFound('page');
      const png = await renderedPage(document.id, params.page, () =>
        deps.storage.read(document.storageKey, MAX_RENDERED_PDF_BYTES),
      );
      return { body: png, contentType: 'image/png', fileName: `page-${params.page}.png` };
    },
  }),
  // A comment on the invoice (the API's createComment), from the invoice page.
  defineAction({
    path: '/invoices/:id/comments',
    level: 'write',
    params: idParams,
    body: z.object({ _csrf: z.string().optional(), body: z.string().optional() }),
    handle: (input) =>
      actOrShowRefusal(
        {
          view: 'invoice',
          nav: 'invoices',
          load: async () => ({ ...(await invoicePage(input, null)), commentDraft: input.body.body ?? '' }),
        },
        async () => {
          await input.call('createComment', {
            body: { entity_type: 'invoice', entity_id: input.params.id, body: input.body.body ?? '' },
          });
          return { redirect: `/app/invoices/${input.params.id}#comments-heading`, notice: input.t.review.commentAdded };
        },
      ),
  }),
];

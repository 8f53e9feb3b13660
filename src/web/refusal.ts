import { ApiError } from '../http/errors.js';
import type { NavSection } from './render.js';
import type { ActionResult } from './page.js';

// An action whose refusal belongs on the page it was taken from: the API's error (code, message,
// field details) is shown above the forms of that page, rendered again, with the API's status.
// Anything else (and a page that cannot be read at all, e.g. another organization's record)
// goes to the error page as usual.

export interface Refusal {
  code: string;
  message: string;
  details: { field: string; message: string }[];
}

// The page the action came from: its view and the same `load` as its GET, so the view reads the
// same data (its type included) with `refusal` beside it.
export interface RefusalPage<Data extends { title: string }> {
  view: string;
  nav: NavSection;
  load: () => Promise<Data>;
}

export async function actOrShowRefusal<Data extends { title: string }>(
  page: RefusalPage<Data>,
  act: () => Promise<{ redirect: string; notice: string }>,
): Promise<ActionResult> {
  try {
    return await act();
  } catch (caught) {
    if (!(caught instanceof ApiError) || caught.status >= 500) throw caught;
    const data = await page.load();
    const details = Array.isArray(caught.extra.details) ? (caught.extra.details as Refusal['details']) : [];
    const refusal: Refusal = { code: caught.code, message: caught.message, details };
    const shown: Data & { refusal: Refusal } = { ...data, refusal };
    return { view: page.view, title: data.title, nav: page.nav, status: caught.status, data: shown };
  }
}

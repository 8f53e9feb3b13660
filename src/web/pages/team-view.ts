import { z } from 'zod';
import { setCookie } from '../cookies.js';
import { defineAction } from '../page.js';
import { isSecureApp } from '../session.js';
import { VIEW_COOKIE, VIEWS } from '../team-view.js';
import { safeNext } from './auth.js';

// The header's switch between a team member's part and everything (src/web/team-view.ts).
export const teamViewActions = [
  defineAction({
    path: '/view',
    level: 'read',
    body: z.object({ view: z.enum(VIEWS), next: z.string().optional() }),
    handle: ({ body, ctx, deps, t }) => {
      setCookie(ctx, VIEW_COOKIE, body.view, { secure: isSecureApp(deps), maxAgeSeconds: 365 * 86_400 });
      return Promise.resolve({
        redirect: safeNext(body.next),
        notice: body.view === 'mine' ? t.teams.showingMine : t.teams.showingAll,
      });
    },
  }),
];

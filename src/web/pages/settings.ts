import { z } from 'zod';
import {
  AdminError,
  changeMemberRole,
  createApiKey,
  createIngestionToken,
  disableOrganizationIngestionToken,
  disableOwnApiKey,
  inviteMember,
  listIngestionTokens,
  listInvitations,
  listMembers,
  listOwnApiKeys,
  removeMember,
  revokeInvitation,
} from '../../admin/service.js';
import { atLeast, INGESTION_SCOPES, LEVELS } from '../../auth/levels.js';
import { errors } from '../../http/errors.js';
import { defineAction, definePage } from '../page.js';
import { isSecureApp } from '../session.js';
import { LOCALE_NAMES, LOCALES, textsFor, writeLanguageCookie } from '../texts/index.js';

// Personal settings: the user's API keys in the active organization (created at a level no
// higher than their role; the plaintext is shown once). Admins also manage the organization's
// ingestion tokens and members. The services are the admin CLI's (src/admin/service.ts). Anyone
// chooses the application's language here (a cookie of this browser, src/web/texts/).

const idParams = z.object({ id: z.string().uuid() });
const level = z.enum(LEVELS);
const name = z.string().trim().min(1, 'Give it a name.').max(100);

// The admin services speak AdminError (the CLI prints it); here it is a refused form.
async function asFormError<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof AdminError) throw errors.validation(error.message);
    throw error;
  }
}

export const settingsPages = [
  definePage({
    path: '/settings',
    nav: 'settings',
    title: (t) => t.settings.title,
    view: 'settings',
    load: async ({ deps, session }) => {
      const admin = atLeast(session.role, 'admin');
      const [apiKeys, tokens, members, invitations] = await Promise.all([
        listOwnApiKeys(deps.db, session.userId, session.organizationId),
        admin ? listIngestionTokens(deps.db, session.organizationId) : [],
        admin ? listMembers(deps.db, session.organizationId) : [],
        admin ? listInvitations(deps.db, session.organizationId) : [],
      ]);
      const levels = LEVELS.filter((l) => atLeast(session.role, l));
      return {
        apiKeys,
        tokens,
        members,
        invitations,
        levels,
        allLevels: LEVELS,
        scopes: INGESTION_SCOPES,
        userId: session.userId,
        organizationId: session.organizationId,
        languages: LOCALES.map((code) => ({ code, name: LOCALE_NAMES[code] })),
      };
    },
  }),
  defineAction({
    path: '/language',
    level: 'read',
    body: z.object({ locale: z.enum(LOCALES) }),
    handle: async ({ body, ctx, deps }) => {
      writeLanguageCookie(ctx, body.locale, isSecureApp(deps));
      // Said in the language just chosen: the request itself came in the one before.
      return { redirect: '/app/settings', notice: textsFor(body.locale).settings.languageChanged };
    },
  }),
  defineAction({
    path: '/settings/api-keys',
    level: 'read',
    body: z.object({ name, level }),
    handle: async ({ body, deps, session, t }) => {
      // createApiKey refuses a level above the role, as the CLI does.
      const key = await asFormError(
        createApiKey(deps.db, {
          userId: session.userId,
          organizationId: session.organizationId,
          level: body.level,
          name: body.name,
        }),
      );
      return {
        view: 'secret-created',
        title: t.settings.apiKeyCreated,
        nav: 'settings',
        data: {
          heading: t.settings.apiKeyCreated,
          secret: key.key,
          description: t.settings.apiKeyDescription(key.name, key.level, session.organizationId),
        },
      };
    },
  }),
  defineAction({
    path: '/settings/api-keys/:id/revoke',
    level: 'read',
    params: idParams,
    handle: async ({ params, deps, session, t }) => {
      if (!(await disableOwnApiKey(deps.db, session.userId, session.organizationId, params.id)))
        throw errors.notFound('API key');
      return { redirect: '/app/settings', notice: t.settings.apiKeyRevoked };
    },
  }),
  defineAction({
    path: '/settings/ingestion-tokens',
    level: 'admin',
    body: z.object({ name, scopes: z.union([z.enum(INGESTION_SCOPES), z.array(z.enum(INGESTION_SCOPES))]).optional() }),
    handle: async ({ body, deps, session, t }) => {
      const scopes = Array.isArray(body.scopes) ? body.scopes : body.scopes ? [body.scopes] : [];
      if (scopes.length === 0)
        throw errors.validation(t.settings.chooseScope, [{ field: 'scopes', message: t.settings.chooseOne }]);
      const token = await asFormError(
        createIngestionToken(deps.db, {
          organizationId: session.organizationId,
          scopes,
          name: body.name,
          createdByUserId: session.userId,
        }),
      );
      return {
        view: 'secret-created',
        title: t.settings.tokenCreated,
        nav: 'settings',
        data: {
          heading: t.settings.tokenCreated,
          secret: token.token,
          description: t.settings.tokenDescription(token.name, token.scopes.join(', ')),
        },
      };
    },
  }),
  defineAction({
    path: '/settings/ingestion-tokens/:id/disable',
    level: 'admin',
    params: idParams,
    handle: async ({ params, deps, session, t }) => {
      if (!(await disableOrganizationIngestionToken(deps.db, session.organizationId, params.id)))
        throw errors.notFound('ingestion token');
      return { redirect: '/app/settings', notice: t.settings.tokenDisabled };
    },
  }),
  defineAction({
    path: '/settings/members',
    level: 'admin',
    body: z.object({
      email: z.string().trim().toLowerCase().email('Enter an e-mail address.').max(320),
      name: z.string().trim().max(200).optional(),
      role: level,
    }),
    handle: async ({ body, deps, session, t }) => {
      // The same answer whether or not the address has an account (src/admin/service.ts).
      const invitation = await inviteMember(deps.db, {
        organizationId: session.organizationId,
        email: body.email,
        name: body.name || null,
        role: body.role,
        invitedByUserId: session.userId,
        appBaseUrl: deps.config.APP_BASE_URL,
      });
      return {
        view: 'secret-created',
        title: t.settings.memberInvited,
        nav: 'settings',
        data: {
          heading: t.settings.isInvited(invitation.email),
          secret: invitation.url,
          description: t.settings.invitationDescription(
            invitation.email,
            invitation.role,
            invitation.expires_at.slice(0, 16).replace('T', ' '),
          ),
        },
      };
    },
  }),
  defineAction({
    path: '/settings/invitations/:id/revoke',
    level: 'admin',
    params: idParams,
    handle: async ({ params, deps, session, t }) => {
      if (!(await revokeInvitation(deps.db, session.organizationId, params.id))) throw errors.notFound('invitation');
      return { redirect: '/app/settings', notice: t.settings.invitationWithdrawn };
    },
  }),
  defineAction({
    path: '/settings/members/:id/role',
    level: 'admin',
    params: idParams,
    body: z.object({ role: level }),
    handle: async ({ params, body, deps, session, t }) => {
      await asFormError(changeMemberRole(deps.db, session.organizationId, params.id, body.role));
      return { redirect: '/app/settings', notice: t.settings.roleChanged };
    },
  }),
  defineAction({
    path: '/settings/members/:id/remove',
    level: 'admin',
    params: idParams,
    handle: async ({ params, deps, session, t }) => {
      await asFormError(removeMember(deps.db, session.organizationId, params.id));
      return {
        redirect: params.id === session.userId ? '/app/invoices' : '/app/settings',
        notice: t.settings.memberRemoved,
      };
    },
  }),
];

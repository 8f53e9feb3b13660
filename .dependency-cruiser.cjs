// The layers of docs/architecture.md ("Layers"), kept one-way: `npm run lint:deps` (scripts/test
// runs it after the type check). Type-only imports count too: a type that climbs back up is a
// design that climbs back up, even if the compiler erases it.

// Lowest first. A folder (or a root file, named without `.ts`) may import its own layer's and the
// layers below; never one above.
const layers = [
  { name: 'foundation', parts: ['shared', 'db', 'generated', 'config', 'logger', 'storage', 'temporal', 'infra'] },
  { name: 'kernel', parts: ['auth', 'http', 'deps'] },
  // Domain folders come in tiers (below); the whole domain layer sits here.
  { name: 'domains', parts: [] },
  { name: 'app', parts: ['web', 'routes', 'app', 'api', 'bootstrap', 'worker'] },
];

// The domain folders, lowest tier first. A domain may import domains of lower tiers only: not one
// of its own tier, not one above. To add a dependency that goes up, move the piece to the folder
// that owns it instead (docs/architecture.md, "Layers").
const domainTiers = [
  ['activity', 'teams', 'exchange-rates', 'organizations', 'parties', 'support'],
  ['notifications'],
  ['runs'],
  ['integrations', 'documents'],
  ['admin', 'invoices'],
  ['agreements'],
  ['alerts', 'matching'],
  ['checks'],
  ['check-selections', 'claims', 'overview', 'search'],
];

// The one import that still climbs: the retry route of runs asks integrations whether a sync may
// be resumed by this actor. The way out is a retry-permission hook on the run type, registered by
// integrations; until then it is named here, and nothing else may climb.
const knownClimbs = [{ domain: 'runs', from: '^src/(runs)/routes[.]ts$', to: '^src/integrations/syncs[.]ts$' }];

const part = (names) => `^src/(${names.join('|')})(/|[.]ts$)`;
const domains = domainTiers.flat();
layers[2].parts = domains;

const layerRules = layers.slice(0, -1).map((layer, index) => ({
  name: `layer-${layer.name}-not-up`,
  comment: `${layer.name} may not import a higher layer (${layers
    .slice(index + 1)
    .map((higher) => higher.name)
    .join(', ')}), nor activities/, workflows/ or src/dev/`,
  severity: 'error',
  from: { path: part(layer.parts) },
  to: {
    path: [part(layers.slice(index + 1).flatMap((higher) => higher.parts)), '^activities/', '^workflows/', '^src/dev/'],
  },
}));

const domainRules = domainTiers.flatMap((tier, index) => {
  const rule = (from, pathNot) => ({
    name: `domain-tier-${index + 1}-one-way`,
    comment: `${tier.join(', ')} may import only domains of lower tiers`,
    severity: 'error',
    from,
    to: {
      path: part(domains.filter((domain) => !domainTiers.slice(0, index).flat().includes(domain))),
      // Its own folder is fine: the rule is about the folders around it.
      pathNot: ['^src/$1(/|[.]ts$)', ...pathNot],
    },
  });
  const climbsHere = knownClimbs.filter((climb) => tier.includes(climb.domain));
  return [
    rule({ path: part(tier), pathNot: climbsHere.map((climb) => climb.from) }, []),
    ...climbsHere.map((climb) => rule({ path: climb.from }, [climb.to])),
  ];
});

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No module reaches itself through its imports.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...layerRules,
    ...domainRules,
    {
      name: 'activities-not-into-app',
      comment: 'activities/ run in the worker on the domain code; they never import the app layer.',
      severity: 'error',
      from: { path: '^activities/' },
      to: { path: [part(layers[3].parts), '^workflows/', '^src/dev/'] },
    },
    {
      name: 'workflows-no-io',
      comment:
        'Workflows are deterministic and bundled for the Temporal sandbox: activities/ only as types, never the database, storage, infra or the Prisma client.',
      severity: 'error',
      from: { path: '^workflows/' },
      to: {
        path: ['^activities/', '^src/(db|infra|storage|generated|dev)/'],
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'workflows-only-workflow-safe-values',
      comment:
        'A workflow imports values only from workflows/ and from pure modules of src/ listed here (everything else only as types).',
      severity: 'error',
      from: { path: '^workflows/' },
      to: {
        path: '^src/',
        pathNot: [
          '^src/shared/failures[.]ts$',
          '^src/temporal/search-attributes[.]ts$',
          '^src/notifications/workflow-ids[.]ts$',
        ],
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'dev-only-from-tools',
      comment: 'src/dev/ (npm start) is for scripts and tests; the product never imports it.',
      severity: 'error',
      from: { path: '^(src|activities|workflows)/', pathNot: '^src/dev/' },
      to: { path: '^src/dev/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^src/generated/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};

